"""`draughts match` (cutechess-cli's options) and `draughts openings`."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from typing import Dict, List, Optional, Sequence, Tuple

from draughts._args import parse_bool, parse_int, parse_real, positive_int
from draughts.errors import InvalidInputError
from draughts.match import openings as op
from draughts.match import stats
from draughts.match.engines import PROTOCOLS, parse_engine
from draughts.match.game import DrawAdjudication, ResignAdjudication, Rules
from draughts.match.runner import Console, Match, load_state
from draughts.match.schedule import TOURNAMENTS
from draughts.match.settings import MatchSettings, OpeningSettings
from draughts.variants import variant as get_variant

# The defaults, which the help below is written from.
#: -games, -rounds and -repeat when not given, and -repeat's N when it has none
GAMES, ROUNDS, REPEAT, REPEAT_N = 1, 1, 1, 2
#: the match with no -engine: our engine at full strength against level 10
DEFAULT_PAIRING = (
    ["name=draughts", "cmd=draughts", "arg=hub"],
    ["name=draughts-level10", "cmd=draughts", "arg=hub", "option.level=10"],
)
DEFAULT_PAIRING_EACH = ["depth=6", "option.tt-size=16"]
#: its -games and -repeat when not given
DEFAULT_PAIRING_GAMES, DEFAULT_PAIRING_REPEAT = 20, 2
VARIANT, TOURNAMENT, RATINGINTERVAL = "international", "round-robin", 10

_USAGE = """\
usage: draughts match [-engine SETTINGS...]... [-each SETTINGS...] [OPTIONS]

Engine-vs-engine matches with cutechess-cli's options and output.

Engines (repeat -engine; -each applies to every engine, an engine's own win):
  -engine name=N cmd=PROGRAM [arg=A]... [dir=D] [proto={protocols}]
          [option.NAME=VALUE]... [tc=TC] [st=S] [depth=D] [nodes=N]
          [timemargin=MS] [restart=on|off] [timeout=S] [book=on|off]
      our own engine: cmd=draughts arg=hub, or proto=builtin: in this process;
      its options (option.NAME=VALUE, draughts.options):
{engine_options}
      proto=hub1: a Hub version 1 engine (Scan 2.0); proto=dxp [host=H] [port=P]:
      a DXP follower.  Engines' own opening books are off unless book=on.
      tc=40/60+0.5 (moves/time+inc), tc=2:00 (sudden death), tc=60+1 (Fischer),
      tc=inf; st=300 a fixed 300 s a move; depth=/nodes= limit the search.
      A move later than the time available plus timemargin loses on time; an
      engine silent past that (and 2 s or half its time more) has stalled.
  With no -engine: our engine at full strength against level 10 (-each {pairing_each}),
  {pairing_games} games, each opening played {pairing_repeat} times with colours swapped (american: on the
  ACF 3-move ballots).

Match:
  -variant V              international, american, russian, ... (default {variant})
  -no-mandatory-capture   the 8x8 house rule
  -games N                games per pairing in each round (default {games}; {pairing_games}
                          with no -engine)
  -rounds N               rounds (default {rounds})
  -repeat [N]             play each opening N times, colours swapped (N: default {repeat_n};
                          without -repeat: {repeat}, {pairing_repeat} with no -engine)
  -tournament {tournaments}   (default {tournament})
  -concurrency N          games at once (default 1; with -cluster, the cluster's CPUs);
                          an engine that declares a threads parameter is told to search
                          on max(1, processors // N) threads (1 with -use-affinity or on
                          a cluster) unless option.threads= sets it; engines limited
                          by depth= or nodes= alone keep their own default
  -use-affinity           keep each game's engines on a processor of their own (Linux),
                          so that two searching engines never share one; the default
                          when 2 or more games run at once and there is a processor
                          for each (-no-affinity: never)
  -srand N                seed of the random opening order
  -openings file=F [format=pdn|fen] [order=sequential|random] [plies=N] [start=N]
                          F may be a shipped deck: acf-3move (american)
  -draw movenumber=N movecount=N score=CENTIMEN
  -resign movecount=N score=CENTIMEN [twosided=true]
  -maxmoves N             adjudicate a draw after N moves
  -recover                restart crashed or stalled engines and go on
  -sprt elo0=E0 elo1=E1 alpha=A beta=B
                          stop when H0 or H1 is accepted (two engines)
  -ratinginterval N       print the Elo lines every N games (default {ratinginterval}; 0: at the end)

Output and state:
  -pdnout FILE            every game as PDN (also -pgnout)
  -jsonout FILE           a JSON summary at the end
  -event NAME, -site NAME PDN tags
  -state FILE             save the match after every game
  -live FILE              keep the games in progress in FILE (moves, clocks, the engines'
                          lines as they think) for a viewer: draughts gui --watch FILE
  -resume FILE            continue the match saved in FILE (and keep saving there)
  -progress on|off        progress bar on stderr (default: when stderr is a terminal)
  -debug                  log every line to and from the engines on stderr
  -show-latency           after every game and at the end, each engine's latency: the
                          runner's time for a move less the engine's own reported time
                          (the pipes, scheduling, the runner; always in -jsonout)
  -cluster ADDRESS        play the games as Ray tasks on the cluster at ADDRESS ('auto');
                          with -resume, 'none' plays the rest on this machine
  -help, -h               this help
"""


#: what `draughts match -help` prints
def _engine_options_text() -> str:
    from draughts import options

    out, line = [], "       "
    for o in options.engine_options():
        if o.name == "variant":
            continue
        word = f" {o.name}" + (f"={o.min}..{o.max}" if o.type == "int" else "")
        if len(line) + len(word) > 78:
            out.append(line)
            line = "       "
        line += word
    return "\n".join(out + [line])


MATCH_USAGE = _USAGE.format(
    engine_options=_engine_options_text(),
    protocols="|".join(PROTOCOLS),
    pairing_each=" ".join(DEFAULT_PAIRING_EACH),
    pairing_games=DEFAULT_PAIRING_GAMES,
    pairing_repeat=DEFAULT_PAIRING_REPEAT,
    variant=VARIANT,
    games=GAMES,
    rounds=ROUNDS,
    repeat=REPEAT,
    repeat_n=REPEAT_N,
    tournaments="|".join(TOURNAMENTS),
    tournament=TOURNAMENT,
    ratinginterval=RATINGINTERVAL,
)

#: every option of `draughts match`, declared once: how it takes its value
#: ("value": one, "values": several, "flag": none, "optional": one or none)
#: and whether a resumed match may change it (-resume checks the others)
MATCH_OPTIONS: Dict[str, Tuple[str, bool]] = {
    "engine": ("values", False),
    "each": ("values", False),
    "openings": ("values", False),
    "draw": ("values", False),
    "resign": ("values", False),
    "sprt": ("values", False),
    "variant": ("value", False),
    "games": ("value", False),
    "rounds": ("value", False),
    "tournament": ("value", False),
    "concurrency": ("value", True),
    "srand": ("value", False),
    "maxmoves": ("value", False),
    "pdnout": ("value", False),
    "pgnout": ("value", False),
    "jsonout": ("value", False),
    "state": ("value", False),
    "live": ("value", True),
    "resume": ("value", True),
    "cluster": ("value", True),
    "event": ("value", False),
    "site": ("value", False),
    "ratinginterval": ("value", True),
    "progress": ("value", True),
    "recover": ("flag", True),
    "no-mandatory-capture": ("flag", False),
    "help": ("flag", False),
    "h": ("flag", False),
    "debug": ("flag", True),
    "show-latency": ("flag", True),
    "use-affinity": ("flag", True),
    "no-affinity": ("flag", True),
    "repeat": ("optional", False),
}


def _kind(name: str) -> Optional[str]:
    """How option `name` takes its value (MATCH_OPTIONS), None for no such option."""
    entry = MATCH_OPTIONS.get(name)
    return entry[0] if entry is not None else None


def _resume_free(name: str) -> bool:
    """Whether a resumed match may change option `name`."""
    entry = MATCH_OPTIONS.get(name)
    return entry is not None and entry[1]


def _is_option(token: str) -> bool:
    if not token.startswith("-") or len(token) < 2:
        return False
    try:
        parse_real(token)  # a negative number is a value
        return False
    except ValueError:
        return True


def split_options(argv: Sequence[str]) -> List[Tuple[str, List[str]]]:
    """(option, values) in order; `--opt` is read as `-opt`."""
    out: List[Tuple[str, List[str]]] = []
    i = 0
    argv = list(argv)
    while i < len(argv):
        tok = argv[i]
        if not _is_option(tok):
            raise InvalidInputError(f"unexpected {tok!r}: options start with - (see draughts match -help)")
        name = tok.lstrip("-")
        if name.startswith("option.") or "=" in name:
            raise InvalidInputError(f"{tok!r}: engine settings follow -engine or -each")
        i += 1
        values: List[str] = []
        while i < len(argv) and not _is_option(argv[i]):
            values.append(argv[i])
            i += 1
        kind = _kind(name)
        if kind == "values":
            pass
        elif kind == "value":
            if len(values) != 1:
                raise InvalidInputError(f"-{name} takes one value, not {len(values)}")
        elif kind == "flag":
            if values:
                raise InvalidInputError(f"-{name} takes no value")
        elif kind == "optional":
            if len(values) > 1:
                raise InvalidInputError(f"-{name} takes at most one value")
        else:
            raise InvalidInputError(f"unknown option -{name} (see draughts match -help)")
        out.append((name, values))
    return out


def _kv(option: str, tokens: Sequence[str], known: Sequence[str]) -> Dict[str, str]:
    out = {}
    for t in tokens:
        if "=" not in t:
            raise InvalidInputError(f"-{option}: {t!r} is not key=value")
        k, v = t.split("=", 1)
        if k not in known:
            raise InvalidInputError(f"-{option}: unknown setting {k!r} (known: {', '.join(known)})")
        out[k] = v
    return out


def _path(p: Optional[str]) -> Optional[str]:
    """Output files by absolute path, so that a match resumed elsewhere writes the same files."""
    return os.path.abspath(p) if p else p


def settings_from_options(opts: List[Tuple[str, List[str]]]):
    """MatchSettings from split options (not -resume/-progress)."""

    engines_tokens: List[List[str]] = []
    each: List[str] = []
    single: Dict[str, str] = {}
    flags = set()
    repeat: Optional[int] = None
    multi: Dict[str, List[str]] = {}
    for name, values in opts:
        if name == "engine":
            engines_tokens.append(values)
        elif name == "each":
            each.extend(values)
        elif name in ("openings", "draw", "resign", "sprt"):
            multi[name] = values
        elif _kind(name) == "flag":
            flags.add(name)
        elif name == "repeat":
            repeat = parse_int(values[0], "-repeat", low=1) if values else REPEAT_N
        else:
            single["pdnout" if name == "pgnout" else name] = values[0]

    default_pairing = not engines_tokens
    if default_pairing:
        engines_tokens = [list(t) for t in DEFAULT_PAIRING]
        each = DEFAULT_PAIRING_EACH + each
    if len(engines_tokens) < 2:
        raise InvalidInputError("a match needs at least two -engine")
    engines = [parse_engine(t, each) for t in engines_tokens]

    variant_name = single.get("variant", VARIANT)
    v = get_variant(variant_name)  # checks the name
    games = (
        parse_int(single["games"], "-games", low=1)
        if "games" in single
        else DEFAULT_PAIRING_GAMES
        if default_pairing
        else GAMES
    )
    if repeat is None:
        repeat = DEFAULT_PAIRING_REPEAT if default_pairing else REPEAT
    tournament = single.get("tournament", TOURNAMENT)
    if tournament not in TOURNAMENTS:
        raise InvalidInputError(f"-tournament takes {' or '.join(TOURNAMENTS)}, not {tournament!r}")

    openings = None
    if "openings" in multi:
        o = _kv("openings", multi["openings"], ("file", "format", "order", "plies", "start"))
        if "file" not in o:
            raise InvalidInputError("-openings needs file=")
        fmt = o.get("format")
        if fmt is not None and fmt not in ("pdn", "fen", "pgn", "epd"):
            raise InvalidInputError(f"-openings format= takes pdn or fen, not {fmt!r}")
        if fmt is not None:
            fmt = {"pgn": "pdn", "epd": "fen"}.get(fmt, fmt)
        order = o.get("order", "sequential")
        if order not in ("sequential", "random"):
            raise InvalidInputError(f"-openings order= takes sequential or random, not {order!r}")
        file = os.path.abspath(o["file"]) if os.path.exists(o["file"]) else o["file"]
        openings = OpeningSettings(
            file,
            fmt,
            order,
            parse_int(o["plies"], "-openings plies=", low=0) if "plies" in o else None,
            parse_int(o.get("start", "1"), "-openings start=", low=1),
        )
    elif default_pairing and v.name == "american":
        openings = OpeningSettings("acf-3move", "pdn", "random")

    draw = resign = None
    if "draw" in multi:
        d = _kv("draw", multi["draw"], ("movenumber", "movecount", "score"))
        draw = DrawAdjudication(
            parse_int(d.get("movenumber", "0"), "-draw movenumber=", low=0),
            parse_int(d.get("movecount", "1"), "-draw movecount=", low=1),
            parse_int(d.get("score", "0"), "-draw score=", low=0),
        )
    if "resign" in multi:
        r = _kv("resign", multi["resign"], ("movecount", "score", "twosided"))
        if "score" not in r:
            raise InvalidInputError("-resign needs score=")
        resign = ResignAdjudication(
            parse_int(r.get("movecount", "1"), "-resign movecount=", low=1),
            parse_int(r["score"], "-resign score=", low=1),
            parse_bool(r.get("twosided", "false"), "-resign twosided="),
        )
    maxmoves = parse_int(single["maxmoves"], "-maxmoves", low=1) if "maxmoves" in single else 0

    sprt = None
    if "sprt" in multi:
        p = _kv("sprt", multi["sprt"], ("elo0", "elo1", "alpha", "beta"))
        bounds = [
            parse_real(p.get(key, default), f"-sprt {key}=")
            for key, default in (("elo0", "0"), ("elo1", "5"), ("alpha", "0.05"), ("beta", "0.05"))
        ]
        try:
            sprt = stats.Sprt(*bounds)
        except ValueError as e:
            raise InvalidInputError(f"-sprt: {e}") from None

    return MatchSettings(
        engines=engines,
        variant=v.name,
        games=games,
        rounds=parse_int(single["rounds"], "-rounds", low=1) if "rounds" in single else ROUNDS,
        repeat=repeat,
        tournament=tournament,
        concurrency=parse_int(single["concurrency"], "-concurrency", low=1) if "concurrency" in single else None,
        srand=parse_int(single["srand"], "-srand", low=0) if "srand" in single else None,
        openings=openings,
        rules=Rules(draw, resign, maxmoves),
        recover="recover" in flags,
        sprt=sprt,
        event=single.get("event", "?"),
        site=single.get("site", "?"),
        pdnout=_path(single.get("pdnout")),
        jsonout=_path(single.get("jsonout")),
        state=_path(single.get("state")),
        live=_path(single.get("live")),
        ratinginterval=(
            parse_int(single["ratinginterval"], "-ratinginterval", low=0)
            if "ratinginterval" in single
            else RATINGINTERVAL
        ),
        cluster=single.get("cluster"),
        mandatory_capture="no-mandatory-capture" not in flags,
        show_latency="show-latency" in flags,
        use_affinity=True if "use-affinity" in flags else (False if "no-affinity" in flags else None),
    )


def run_match(argv: Sequence[str], out=None, err=None) -> int:

    opts = split_options(argv)
    names = [n for n, _ in opts]
    if "help" in names or "h" in names:
        (out or sys.stdout).write(MATCH_USAGE)
        return 0
    single = {n: v[0] for n, v in opts if v and _kind(n) == "value"}
    _logging("debug" in names)
    progress = None
    if "progress" in single:
        progress = parse_bool(single["progress"], "-progress")
    resume_state = None
    if "resume" in single:
        extra = [n for n in names if not _resume_free(n)]
        if extra:
            raise InvalidInputError(
                f"-resume takes the match from its state file; it cannot be changed with -{', -'.join(extra)}"
            )
        path = os.path.abspath(single["resume"])
        resume_state = load_state(path)
        settings = MatchSettings.from_json(resume_state["settings"])
        settings.state = path
        if "concurrency" in single:
            settings.concurrency = parse_int(single["concurrency"], "-concurrency", low=1)
        if "cluster" in single:
            # `-cluster none` plays the rest here (the cluster it ran on has gone)
            settings.cluster = None if single["cluster"].lower() in ("none", "off") else single["cluster"]
        if "recover" in names:
            settings.recover = True
        if "live" in single:
            settings.live = _path(single["live"])
        if "ratinginterval" in single:
            settings.ratinginterval = parse_int(single["ratinginterval"], "-ratinginterval", low=0)
        if "show-latency" in names:
            settings.show_latency = True
        if "use-affinity" in names:
            settings.use_affinity = True
        if "no-affinity" in names:
            settings.use_affinity = False
        argv = resume_state.get("argv", list(argv))
    else:
        settings = settings_from_options([(n, v) for n, v in opts if n != "progress"])
    console = Console(out, err, progress)
    match = Match(settings, console=console, resume_state=resume_state, argv=list(argv))
    _sigterm_interrupts()
    try:
        result = match.run()
    except KeyboardInterrupt:
        where = settings.state
        hint = f"; resume with: draughts match -resume {where}" if where else ""
        print(f"draughts: match interrupted{hint}", file=err or sys.stderr, flush=True)
        raise SystemExit(130) from None
    return 0 if (result.complete or result.stopped) and not (result.stopped or "").startswith("Terminating") else 1


def _sigterm_interrupts() -> None:
    """SIGTERM stops the match like Ctrl-C: engines are closed, the state is kept."""

    if threading.current_thread() is not threading.main_thread():
        return

    def handler(signum, frame):
        raise KeyboardInterrupt

    try:
        signal.signal(signal.SIGTERM, handler)
    except (ValueError, OSError):
        pass


def _logging(debug: bool) -> None:
    """Engine chatter (unreadable lines, slow exits) stays quiet unless -debug."""

    log = logging.getLogger("draughts.hub")
    if debug:
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter("%(relativeCreated)d %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG)
    else:
        log.setLevel(logging.CRITICAL)


def cmd_match(args) -> int:
    return run_match(args.options)


def cmd_openings(args) -> int:

    v = get_variant(args.variant)
    if args.no_mandatory_capture:
        v = v.replace(mandatory_capture=False)
    shown = {"last": 0}

    def progress(found, tries):
        if not args.quiet and sys.stderr.isatty():
            sys.stderr.write(f"\r{found}/{args.count} openings ({tries} tried)")
            sys.stderr.flush()
            shown["last"] = 1

    items = op.generate(
        v, args.plies, args.count, depth=args.depth, max_score=args.max_score, seed=args.seed, progress=progress
    )
    if shown["last"]:
        sys.stderr.write("\n")
    text = op.write_openings(items, v, args.format)
    if args.output and args.output != "-":
        with open(args.output, "w", encoding="utf-8") as fh:
            fh.write(text)
        if not args.quiet:
            print(f"wrote {len(items)} openings to {args.output}", file=sys.stderr)
    else:
        sys.stdout.write(text)
    return 0


def register(subparsers) -> None:
    # cutechess-style single-dash options are read by split_options, not argparse
    p = subparsers.add_parser(
        "match",
        help="engine-vs-engine matches (cutechess-cli's options and output)",
        prefix_chars="\x00",
        add_help=False,
        description="Engine-vs-engine matches; see draughts match -help.",
    )
    p.add_argument("options", nargs="*")
    p.set_defaults(func=cmd_match)

    p = subparsers.add_parser(
        "openings",
        help="generate balanced openings (PDN or FEN)",
        description="Random opening lines from the start position, kept "
        "only when a short search scores them near equal.",
    )
    p.add_argument("--variant", "-v", default="international", help="variant (default international)")
    p.add_argument("--no-mandatory-capture", action="store_true", help="the 8x8 house rule")
    p.add_argument("--plies", "-p", type=positive_int, default=4, help="random plies from the start (default 4)")
    p.add_argument("--count", "-n", type=positive_int, default=100, help="openings to write (default 100)")
    p.add_argument("--depth", "-d", type=positive_int, default=6, help="search depth of the check (default 6)")
    p.add_argument(
        "--max-score",
        type=float,
        default=0.3,
        help="keep lines the search scores within this many men of equal (default 0.3)",
    )
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a new one)")
    p.add_argument("--format", "-f", choices=("pdn", "fen"), default="pdn")
    p.add_argument("--output", "-o", default=None, help="file to write (default stdout)")
    p.add_argument("--quiet", "-q", action="store_true")
    p.set_defaults(func=cmd_openings)
