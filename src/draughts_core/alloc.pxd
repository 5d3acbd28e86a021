# Large tables (transposition and perft tables).

cdef extern from *:
    """
    #include <stdlib.h>
    #include <string.h>
    #if defined(__linux__)
    #include <sys/mman.h>
    #endif
    /* 2 MiB-aligned, zeroed, and on Linux offered to transparent huge pages:
       the table is probed at random, so TLB misses matter. */
    static void* dr_table_alloc(size_t bytes) {
        void* p = NULL;
        size_t align = (size_t)2 << 20;
        if (bytes < align) return calloc(1, bytes);
        if (posix_memalign(&p, align, bytes) != 0) return NULL;
    #if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, bytes, MADV_HUGEPAGE);
    #endif
        memset(p, 0, bytes);
        return p;
    }
    """
    void* dr_table_alloc(size_t bytes) noexcept nogil
