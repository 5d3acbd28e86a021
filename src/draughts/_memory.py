"""How much memory a table may take."""

import os

from draughts.errors import InvalidInputError


def physical_mib() -> int:
    """Physical memory of the machine in MiB (0 when it cannot be told)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // (1 << 20)
    except (AttributeError, ValueError, OSError):
        return 0


def check_table_size(mib: int, what: str) -> None:
    """Refuse a table that would not fit in memory (zeroing it would get the
    process killed rather than give an error)."""
    total = physical_mib()
    if total and mib > total * 3 // 4:
        raise InvalidInputError(
            f"a {mib} MiB {what} does not fit: this machine has {total} MiB "
            f"of memory (at most {total * 3 // 4} MiB may go to one table)"
        )
