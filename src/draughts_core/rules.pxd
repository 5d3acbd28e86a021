# The rules of a variant as data.  A Python Variant is packed once into this
# struct (`Variant.core_rules`, a draughts_core.position.CoreRules); the core branches on these fields
# and never on a variant's name.  No rule state is global.

# The enums' values are the indices of rule_fields' GEOMETRIES, CROWN_MODES, ENDGAME_RULES and GOALS.
cdef enum Geometry:
    GEO_DIAGONAL = 0     # the dark squares of an 8x8 or 10x10 board, diagonal steps (ghost-bit layout)
    GEO_ORTHOGONAL = 1   # every square of an 8x8 board, orthogonal steps (turkish; movegen.pyx's G64 specialisation)

cdef enum Crown:
    CROWN_STOP = 0       # a man reaching the far row during a capture is crowned; the move ends
    CROWN_CONTINUE = 1   # ... is crowned and goes on capturing as a king (russian)
    CROWN_PASS = 2       # ... goes on capturing as a man; crowned only if the capture ends there

cdef enum Endgame:
    ENDGAME_NONE = 0     # no endgame counting rule
    ENDGAME_FMJD = 1     # FMJD art. 6.3-6.4: 16 moves (3 pieces against a lone king), 5 (2 against 1)
    ENDGAME_FMJD64 = 2   # russian FMJD-64: 15 (3 kings against 1), 5, 30 and 60 (kings on both sides)
    ENDGAME_FRISIAN = 3  # frisian, kings only: 7 moves (two against one), 2 (one against one)
    ENDGAME_POOL = 4     # pool (APCA): three kings against a lone king win within 13 moves

cdef enum Family:
    FAMILY_ANY = 0         # the move generator reads every capture rule from the struct
    FAMILY_INTL = 1        # ... holds international's capture rules constant (movegen.FAMILY_RULES)
    FAMILY_AMERICAN = 2    # ... holds american's

cdef enum Goal:
    GOAL_NORMAL = 0        # a side with no move (no pieces or all blocked) loses
    GOAL_LOSING = 1        # antidraughts: a side with no move wins
    GOAL_BREAKTHROUGH = 2  # the first side to crown a king wins (the game ends there)

# One field a rule, named as in rule_fields.RULES (the one declaration of the rules: the Variant
# field, the CoreRules keyword and this field have the same name; CoreRules fills the struct by
# name and checks at import that its fields are the declared ones, besides `extended` and `family`).  The
# order of the fields here carries no meaning.
ctypedef struct Rules:
    int size                   # 8 or 10
    int men_capture_backwards  # men capture backwards
    int flying_kings           # kings move and capture any distance
    int men_capture_kings      # men may capture kings (not in italian)
    int majority_capture       # the capture taking the most pieces is compulsory
    int prefer_king_mover      # czech, italian: a capture by a king beats one by a man
    int prefer_more_kings      # spanish, italian: then the most kings
    int prefer_early_kings     # italian: then the kings captured earliest
    int crown_during_capture   # Crown
    int remove_at_once         # captured pieces leave the board at once (american)
    int mandatory_capture      # capturing is compulsory (off: the house rule)
    # draw rules (draughts_core/draw.pxd): plies without a man move or capture, plies without a
    # capture or promotion (0: off), and the endgame counting rule (Endgame)
    int quiet_plies
    int no_capture_promotion_plies
    int endgame_rules
    # --- fields added for frisian, killer, antidraughts and breakthrough
    int orthogonal_captures    # frisian: men and kings also capture along rows and columns
    int capture_value          # frisian: the capture of greatest value, a king worth a little under two men
    int king_move_limit        # frisian: quiet moves in a row by one king while its side has men (0: any)
    int halt_behind_king       # killer: a king whose capture ends on a king lands right behind it
    int goal                   # Goal
    int extended               # derived (CoreRules): orthogonal_captures, king_move_limit or breakthrough
                               # is on, so moves take the move generator's extended specialisation
    int king_lands_behind      # thai: a flying king lands on the square directly behind each piece it takes
    int geometry               # Geometry: which generator (and bit layout) the core uses
    int no_turn_back           # turkish: a capturing piece never turns back 180 degrees
    int family                 # derived (CoreRules): Family, the move generator's specialisation
                               # whose constant capture rules (movegen.FAMILY_RULES) are these
