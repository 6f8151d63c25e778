#!/usr/bin/env python3
"""Check a published Rifa draw without trusting the operator (docs/VERIFYING.md).

    python3 scripts/verify_draw.py FILE.json [--ref REFERENCE] [--inclusion PROOF.json] [--lang es|en]
    python3 scripts/verify_draw.py --inclusion PROOF.json
    python3 scripts/verify_draw.py --vectors docs/formats/draw-vectors.json

Python 3.9 or later, standard library only. It recomputes, byte for byte as the reference
implementation does (crates/domain/src/draw/), the ledger's Merkle root, every prize's chain
of sources, its winner under the file's rule, and the time order of the commitment and the
sources. Exit status: 0 when everything checked holds, 1 when something does not, 2 when a
file cannot be read. drand's BLS signature is NOT checked here (the standard library has no
BLS12-381 pairing): the script prints where to compare each round, and `rifa-api verify-draw`
checks it offline.
"""

import argparse
import hashlib
import json
import re
import sys
from datetime import date, datetime, time, timedelta, timezone

try:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones
except ImportError:  # Python < 3.9
    sys.stderr.write("verify_draw.py needs Python 3.9 or later (zoneinfo).\n")
    sys.exit(2)

# ---------------------------------------------------------------------------------------------
# Constants of the reference implementation.

TAG_CONTEXT = b"rifa-ledger-v1"  # ledger.rs
QUICKNET_CHAIN_HASH = "52db9ba70e0cc0f6eaf7803dd07447a1f5477735fd3f661792ba94600c84e971"
QUICKNET_GENESIS = 1_692_803_367  # beacon.rs: round 1, Unix seconds
QUICKNET_PERIOD = 3  # seconds between rounds
QUICKNET_SIGNATURE_BYTES = 48  # a compressed G1 point (scheme bls-unchained-g1-rfc9380)
DRAND_ROUND_URL = "https://api.drand.sh/" + QUICKNET_CHAIN_HASH + "/public/{round}"
FREEZE_MARGIN = 600  # prize.rs FREEZE_MARGIN, seconds
DEFAULT_DEADLINE_HOURS = 24  # prize.rs
DEFAULT_TIME_ZONE = "America/Caracas"  # prize.rs
MAX_SOURCE_DIGITS = 18  # fair.rs
RESULT_MAX_CHARS = 60  # fair.rs read_lottery
U32_MAX = 2**32 - 1
U64_MAX = 2**64 - 1
RULE_V1, NUMBER_V2, AMONG_SOLD_V2 = "rifa-rule-v1", "rifa-number-v2", "rifa-among-sold-v2"
RULES = (RULE_V1, NUMBER_V2, AMONG_SOLD_V2)
FORMAT_V1, FORMAT_V2 = "rifa-draw-v1", "rifa-draw-v2"
INCLUSION_FORMAT = "rifa-inclusion-v1"

# Rust's `char::is_whitespace` (Unicode White_Space), which `str::trim` uses. Python's
# str.strip() differs (it also strips U+001C-U+001F), so it is not used on published text.
RUST_WHITESPACE = frozenset(
    "\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
ASCII_DIGITS = frozenset("0123456789")
ASCII_UPPER = {c: c - 32 for c in range(ord("a"), ord("z") + 1)}


class Unreadable(Exception):
    """A file that is not what it says (the Rust command exits 2 on it)."""


class NotANumber(Exception):
    """A result the rule cannot read (Rust's FieldError::NotANumber)."""


def rust_trim_start(text):
    i = 0
    while i < len(text) and text[i] in RUST_WHITESPACE:
        i += 1
    return text[i:]


def rust_trim(text):
    text = rust_trim_start(text)
    j = len(text)
    while j > 0 and text[j - 1] in RUST_WHITESPACE:
        j -= 1
    return text[:j]


def sha256(data):
    return hashlib.sha256(data).digest()


def bytes_from_hex(text):
    """The bytes of a hex text, either case, surrounding whitespace allowed; None otherwise."""
    text = rust_trim(text)
    if len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        return None
    return bytes.fromhex(text)


def hash_from_hex(text):
    raw = bytes_from_hex(text)
    return raw if raw is not None and len(raw) == 32 else None


# ---------------------------------------------------------------------------------------------
# The ledger (ledger.rs): tags, leaves, the RFC 6962 tree, inclusion proofs (RFC 9162).


def normalise_reference(reference):
    """A reference as it is hashed: Rust-trimmed, ASCII letters upper-cased, nothing else."""
    return rust_trim(reference).translate(ASCII_UPPER)


def purchase_tag(salt, reference):
    return sha256(TAG_CONTEXT + b"\x00" + salt + normalise_reference(reference).encode("utf-8"))


def leaf_hash(number, tag):
    return sha256(b"\x00" + number.to_bytes(4, "big") + tag)


def node_hash(left, right):
    return sha256(b"\x01" + left + right)


EMPTY_ROOT = sha256(b"")


def tree_levels(leaves):
    """Every level, leaves first: pairs hashed left to right, an unpaired last node moved up."""
    levels = [list(leaves)]
    while len(levels[-1]) > 1:
        below = levels[-1]
        above = [node_hash(below[i], below[i + 1]) for i in range(0, len(below) - 1, 2)]
        if len(below) % 2:
            above.append(below[-1])
        levels.append(above)
    return levels


def tree_root(levels):
    return levels[-1][0] if levels[-1] else EMPTY_ROOT


def inclusion_proof(levels, index):
    if index >= len(levels[0]):
        return None
    proof, at = [], index
    for level in levels[:-1]:
        sibling = at ^ 1
        if sibling < len(level):
            proof.append(level[sibling])
        at //= 2
    return proof


def verify_inclusion(leaf, index, size, proof, root):
    """RFC 9162 section 2.1.3.2, as ledger.rs verify_inclusion."""
    if index >= size:
        return False
    position, last, hashed = index, size - 1, leaf
    for sibling in proof:
        if last == 0:
            return False
        if position % 2 == 1 or position == last:
            hashed = node_hash(sibling, hashed)
            if position % 2 == 0:
                while position % 2 == 0 and position != 0:
                    position >>= 1
                    last >>= 1
        else:
            hashed = node_hash(hashed, sibling)
        position >>= 1
        last >>= 1
    return last == 0 and hashed == root


# ---------------------------------------------------------------------------------------------
# The rules. Steps are dicts shaped as the published DrawStep JSON (rule.rs, dto/draw.rs).


def digits_used(max_tickets):
    """k: the digits of the raffle's size (1-9 -> 1, 10-99 -> 2, ...)."""
    return len(str(max(max_tickets, 1)))


def number_from_lottery(result, max_tickets):
    """rifa-rule-v1: the last k digits, zeros in front when fewer (rule.rs)."""
    result = rust_trim(result)
    if not result or any(c not in ASCII_DIGITS and c not in " -./" for c in result):
        raise NotANumber(result)
    every = "".join(c for c in result if c in ASCII_DIGITS)
    if not every:
        raise NotANumber(result)
    k = digits_used(max_tickets)
    used = every[-k:] if len(every) >= k else every.rjust(k, "0")
    number = int(used)
    if number > U32_MAX:
        raise NotANumber(result)
    return number, {"step": "lastDigits", "result": result, "digits": k, "used": used, "number": number}


def number_from_beacon(round_, randomness, max_tickets):
    """rifa-rule-v1: first 8 bytes big-endian, mod the size, plus 1."""
    number = int.from_bytes(randomness[:8], "big") % max(max_tickets, 1) + 1
    return number, {"step": "beacon", "round": round_, "randomnessHex": randomness.hex(), "number": number}


def apply_v1(input_, max_tickets, sold, won):
    """rule.rs apply: the drawn number if sold and not won, else upward, wrapping around."""
    if input_["kind"] == "lottery":
        drawn, first = number_from_lottery(input_["result"], max_tickets)
    else:
        drawn, first = number_from_beacon(input_["round"], input_["randomness"], max_tickets)
    steps = [first]
    in_raffle = 1 <= drawn <= max_tickets
    if in_raffle and drawn in sold and drawn not in won:
        steps.append({"step": "wins", "number": drawn})
        return drawn, drawn, steps
    ordered = sorted(sold)
    start = min(drawn + 1, U32_MAX)  # Rust's saturating_add
    upward = next((n for n in ordered if n >= start and n not in won), None)
    winner = upward if upward is not None else next((n for n in ordered if n not in won), None)
    if winner is None:
        steps.append({"step": "noWinner"})
        return drawn, None, steps
    if not in_raffle:
        steps.append({"step": "notInRaffle", "number": drawn, "maxTickets": max_tickets})
    elif drawn in sold:
        steps.append({"step": "alreadyWon", "number": drawn, "next": winner})
    else:
        steps.append({"step": "notSold", "number": drawn, "next": winner})
    if upward is None:
        steps.append({"step": "wrappedAround"})
    steps.append({"step": "wins", "number": winner})
    return drawn, winner, steps


def read_lottery(result, digits):
    """The fair rules: the last D ASCII digits among those the result carries (fair.rs)."""
    result = rust_trim(result)
    every = [c for c in result if c in ASCII_DIGITS]
    if len(result) > RESULT_MAX_CHARS or digits == 0 or len(every) < digits:
        raise NotANumber(result)
    used = "".join(every[len(every) - digits:])
    value = int(used)
    if value > U64_MAX:
        raise NotANumber(result)
    return ("decimal", value, digits), {"step": "digits", "result": result, "digits": digits, "used": used}


def read_beacon(round_, randomness):
    return ("beacon", randomness), {"step": "beaconRandomness", "round": round_, "randomnessHex": randomness.hex()}


def uniform_below(reading, m):
    """value mod m in a complete round of m below the range; None in the incomplete last one."""
    if m == 0:
        return None
    if reading[0] == "decimal":
        value, span = reading[1], 10 ** min(reading[2], MAX_SOURCE_DIGITS)
    else:
        value, span = int.from_bytes(reading[1], "big"), 2**256
    return value % m if value < span - span % m else None


def decide(rule, reading, max_tickets, sold, won):
    """fair.rs decide: (decision, number, steps); the reading's own step is the caller's."""
    in_play = sorted(n for n in sold if n not in won)
    if not in_play:
        return "noWinner", None, [{"step": "noWinner"}]
    count = len(in_play)
    if reading[0] == "beacon":
        randomness, steps = reading[1], [{"step": "inPlay", "count": count}]
        while True:
            place = uniform_below(("beacon", randomness), count)
            if place is not None:
                number = in_play[place]
                steps += [{"step": "place", "remainder": place, "count": count, "number": number},
                          {"step": "wins", "number": number}]
                return "winner", number, steps
            randomness = sha256(randomness)
            steps += [{"step": "incompleteRound", "count": count},
                      {"step": "rehashed", "randomnessHex": randomness.hex()}]
    if rule == AMONG_SOLD_V2:
        steps = [{"step": "inPlay", "count": count}]
        place = uniform_below(reading, count)
        if place is None:
            steps += [{"step": "incompleteRound", "count": count}, {"step": "nextSource"}]
            return "nextSource", None, steps
        number = in_play[place]
        steps += [{"step": "place", "remainder": place, "count": count, "number": number},
                  {"step": "wins", "number": number}]
        return "winner", number, steps
    # rifa-number-v2 (and rifa-rule-v1, which settles through apply_v1 instead).
    value, digits = reading[1], reading[2]
    width = digits_used(max_tickets)
    named = value % 10 ** min(width, MAX_SOURCE_DIGITS)
    if not 1 <= named <= max_tickets:
        outside = value % 10 ** min(width, digits, MAX_SOURCE_DIGITS)
        return "nextSource", None, [
            {"step": "outsideRaffle", "number": min(outside, U32_MAX), "maxTickets": max_tickets},
            {"step": "nextSource"}]
    steps = [{"step": "names", "number": named}]
    if named in sold and named not in won:
        steps.append({"step": "wins", "number": named})
        return "winner", named, steps
    steps.append({"step": "alreadyWonNextSource" if named in won else "notSoldNextSource", "number": named})
    steps.append({"step": "nextSource"})
    return "nextSource", None, steps


def settle_prize(rule, max_tickets, sold, won, chain):
    """settle.rs settle_prize. chain: [{"digits", "state": {"kind": recorded|lapsed|awaited, ...}}].

    Returns {"kind": "decided", "source", "drawn", "winner", "steps"} or
    {"kind": "awaiting", "source", "steps"}; raises NotANumber.
    """
    if rule == RULE_V1:
        first = chain[0]["state"] if chain else {"kind": "awaited"}
        if first["kind"] != "recorded":
            return {"kind": "awaiting", "source": 0, "steps": []}
        drawn, winner, steps = apply_v1(first["input"], max_tickets, sold, won)
        return {"kind": "decided", "source": 0, "drawn": drawn, "winner": winner, "steps": steps}
    steps = []
    for source, link in enumerate(chain):
        state = link["state"]
        if state["kind"] == "awaited":
            return {"kind": "awaiting", "source": source, "steps": steps}
        if state["kind"] == "lapsed":
            steps.append({"step": "sourceLapsed", "source": source, "deadline": state["deadline"]})
            continue
        input_ = state["input"]
        if input_["kind"] == "lottery":
            reading, read = read_lottery(input_["result"], link["digits"])
        else:
            reading, read = read_beacon(input_["round"], input_["randomness"])
        steps.append(read)
        decision, number, decided = decide(rule, reading, max_tickets, sold, won)
        steps += decided
        if decision == "winner":
            return {"kind": "decided", "source": source, "drawn": number, "winner": number, "steps": steps}
        if decision == "noWinner":
            return {"kind": "decided", "source": source, "drawn": 0, "winner": None, "steps": steps}
    steps.append({"step": "noWinner"})
    return {"kind": "decided", "source": max(len(chain) - 1, 0), "drawn": 0, "winner": None, "steps": steps}


def settle_in_order(rule, max_tickets, sold, prizes):
    """settle.rs settle_in_order. prizes: [{"decided": n|None} | {"chain": [...]}].

    Returns [(index, settlement)], or raises NotANumber with .index set.
    """
    won, settled = set(), []
    for index, prize in enumerate(prizes):
        if "decided" in prize:
            if prize["decided"] is not None:
                won.add(prize["decided"])
            continue
        try:
            settlement = settle_prize(rule, max_tickets, sold, won, prize["chain"])
        except NotANumber as error:
            error.index = index
            raise
        settled.append((index, settlement))
        if settlement["kind"] == "awaiting":
            break
        if settlement["winner"] is not None:
            won.add(settlement["winner"])
    return settled


# ---------------------------------------------------------------------------------------------
# Time: quicknet rounds (beacon.rs) and a prize source's clock (prize.rs). Instants are whole
# Unix seconds here (every instant the rules compute is), formatted as the API writes them.


def round_time(round_):
    return QUICKNET_GENESIS + QUICKNET_PERIOD * max(round_ - 1, 0)


def first_round_from(at_seconds, subsec_nanos=0):
    since = max(at_seconds - QUICKNET_GENESIS, 0)
    periods = since // QUICKNET_PERIOD + (1 if since % QUICKNET_PERIOD > 0 or subsec_nanos > 0 else 0)
    return periods + 1


EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def utc_of(seconds):
    return EPOCH + timedelta(seconds=seconds)


def instant_secs(seconds):
    """RFC 3339, UTC, whole seconds, "Z": how a lapse's deadline is recorded in its step."""
    try:
        d = utc_of(seconds)
    except OverflowError:  # past year 9999: only a crafted file gets here
        return "%d s Unix" % seconds
    return "%04d-%02d-%02dT%02d:%02d:%02dZ" % (d.year, d.month, d.day, d.hour, d.minute, d.second)


def instant_millis(seconds):
    """RFC 3339 with milliseconds: how the published file writes instants (dto::instant)."""
    return instant_secs(seconds)[:-1] + ".000Z"


RFC3339 = re.compile(
    r"^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}:\d{2})$")


def parse_instant(text):
    """(seconds, nanoseconds) of an RFC 3339 instant; None when it is not one."""
    match = RFC3339.match(text or "")
    if not match:
        return None
    y, mo, d, h, mi, s, frac, offset = match.groups()
    try:
        at = datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), tzinfo=timezone.utc)
    except ValueError:
        return None
    seconds = int((at - EPOCH).total_seconds())
    if offset not in ("Z", "z"):
        sign = 1 if offset[0] == "+" else -1
        seconds -= sign * (int(offset[1:3]) * 3600 + int(offset[4:6]) * 60)
    return seconds, int((frac or "0").ljust(9, "0"))


def _scan_number(text, max_digits):
    i = 0
    while i < len(text) and i < max_digits and text[i] in ASCII_DIGITS:
        i += 1
    if i == 0:
        raise ValueError(text)
    return int(text[:i]), text[i:]


def parse_draw_date(raw):
    """chrono's NaiveDate::from_str: [ws]year[ws]-[ws]month[ws]-[ws]day[ws]."""
    s = rust_trim_start(raw)
    if s[:1] in ("+", "-"):
        sign, s = (-1 if s[0] == "-" else 1), s[1:]
        year, s = _scan_number(s, 10**6)
        year *= sign
    else:
        year, s = _scan_number(s, 4)
    parts = [year]
    for _ in range(2):
        s = rust_trim_start(s)
        if not s.startswith("-"):
            raise ValueError(raw)
        value, s = _scan_number(rust_trim_start(s[1:]), 2)
        parts.append(value)
    if rust_trim_start(s):
        raise ValueError(raw)
    return date(*parts)  # ValueError outside 1-9999 or not a day


def parse_draw_time(raw):
    """chrono's NaiveTime::parse_from_str(raw, "%H:%M"); "" is the day's first minute."""
    if raw == "":
        return time(0, 0)
    hour, s = _scan_number(rust_trim_start(raw), 2)
    if not s.startswith(":"):
        raise ValueError(raw)
    minute, s = _scan_number(rust_trim_start(s[1:]), 2)
    if s:
        raise ValueError(raw)
    return time(hour, minute)


def _earliest(local, zone):
    """chrono's from_local_datetime(..).earliest(): None when the clock skips that time."""
    found = []
    for fold in (0, 1):
        at = local.replace(tzinfo=zone, fold=fold).astimezone(timezone.utc)
        if at.astimezone(zone).replace(tzinfo=None) == local:
            found.append(at)
    return min(found) if found else None


def lottery_draws_at(source):
    """prize.rs draws_at: the local day and time on the lottery's clock; a skipped time is read
    an hour later; should that be skipped too, the local time is taken as UTC."""
    local = datetime.combine(source["drawDateValue"], source["drawTimeValue"])
    zone = source["zone"]
    at = _earliest(local, zone) or _earliest(local + timedelta(hours=1), zone)
    if at is None:
        at = local.replace(tzinfo=timezone.utc)
    return int((at - EPOCH).total_seconds())


def source_draws_at(source):
    return lottery_draws_at(source) if source["kind"] == "lottery" else round_time(source["round"])


def source_deadline(source):
    if source["kind"] != "lottery":
        return None
    return lottery_draws_at(source) + 3600 * source["deadlineHoursValue"]


def chain_of(rule, source):
    """The prize's chain: under the fair rules a lottery is followed by the first round published
    ten minutes or more after its deadline; rifa-rule-v1 has no chain."""
    if rule == RULE_V1 or source["kind"] != "lottery":
        return [source]
    return [source, {"kind": "beacon", "round": first_round_from(source_deadline(source) + FREEZE_MARGIN)}]


def digits_read(source, rule, max_tickets):
    if source["kind"] == "beacon":
        return 0
    if rule == AMONG_SOLD_V2 and source["digits"] is not None:
        return source["digits"]
    return digits_used(max_tickets)


# ---------------------------------------------------------------------------------------------
# Reading the files as serde reads them (crates/api/src/dto/draw.rs).


def _no_duplicates(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise Unreadable("duplicate key %r" % key)
        seen[key] = value
    return seen


def _no_constants(name):
    raise Unreadable("not JSON: %s" % name)


def load_json(path):
    try:
        with open(path, "rb") as handle:
            raw = handle.read()
    except OSError as error:
        raise Unreadable("%s: %s" % (path, error.strerror or error))
    try:
        return json.loads(raw.decode("utf-8"), object_pairs_hook=_no_duplicates,
                          parse_constant=_no_constants)
    except (UnicodeDecodeError, ValueError) as error:
        raise Unreadable("%s: not JSON (%s)" % (path, error))


MISSING = object()


def field(obj, key, kind, where, default=MISSING):
    """A field as serde reads it: kind is str, u32, u64, i64, list, obj; default MISSING means
    required, None means Option (null allowed), anything else a serde default (null refused)."""
    if not isinstance(obj, dict):
        raise Unreadable("%s is not an object" % where)
    value = obj.get(key, MISSING)
    if value is MISSING or (value is None and default is None):
        if default is MISSING:
            raise Unreadable("%s.%s is missing" % (where, key))
        return default
    ok = {
        "str": isinstance(value, str),
        "list": isinstance(value, list),
        "obj": isinstance(value, dict),
    }.get(kind)
    if ok is None:
        bounds = {"u32": (0, U32_MAX), "u64": (0, U64_MAX), "i64": (-(2**63), 2**63 - 1)}[kind]
        ok = isinstance(value, int) and not isinstance(value, bool) and bounds[0] <= value <= bounds[1]
    if not ok:
        raise Unreadable("%s.%s is not a %s" % (where, key, kind))
    return value


_IANA = []


def iana_names():
    if not _IANA:
        _IANA.append(available_timezones())
    return _IANA[0]


def read_source(raw, where):
    kind = field(raw, "kind", "str", where)
    if kind == "beacon":
        return {"kind": "beacon", "round": field(raw, "round", "u64", where)}
    if kind != "lottery":
        raise Unreadable("%s.kind %r is neither lottery nor beacon" % (where, kind))
    source = {
        "kind": "lottery",
        "lotteryName": field(raw, "lotteryName", "str", where),
        "drawDate": field(raw, "drawDate", "str", where),
        "drawTime": field(raw, "drawTime", "str", where, ""),
        "timeZone": field(raw, "timeZone", "str", where, ""),
        "drawsAt": field(raw, "drawsAt", "str", where, ""),
        "sourceUrl": field(raw, "sourceUrl", "str", where),
        "digits": field(raw, "digits", "u32", where, None),
        "deadlineHours": field(raw, "deadlineHours", "u32", where, None),
        "deadline": field(raw, "deadline", "str", where, ""),
        "fallbackRound": field(raw, "fallbackRound", "u64", where, None),
    }
    try:
        source["drawDateValue"] = parse_draw_date(source["drawDate"])
        source["drawTimeValue"] = parse_draw_time(source["drawTime"])
    except ValueError:
        raise Unreadable("%s: the draw's day or time (%r %r) does not parse"
                         % (where, source["drawDate"], source["drawTime"]))
    zone_name = source["timeZone"] or DEFAULT_TIME_ZONE
    try:
        if zone_name not in iana_names():
            raise ZoneInfoNotFoundError(zone_name)
        source["zone"] = ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise Unreadable("%s: time zone %r is not in this computer's IANA database (install the "
                         "`tzdata` package if it has none)" % (where, zone_name))
    source["zoneName"] = zone_name
    source["deadlineHoursValue"] = (DEFAULT_DEADLINE_HOURS if source["deadlineHours"] is None
                                    else source["deadlineHours"])
    try:
        lottery_draws_at(source)
        utc_of(source_deadline(source) + FREEZE_MARGIN)
    except (OverflowError, ValueError):
        raise Unreadable("%s: the draw's time or deadline is out of range" % where)
    return source


def read_result(raw, where):
    """A PrizeResultDto, its hex left unchecked (only the results a rule reads are decoded)."""
    kind = field(raw, "kind", "str", where)
    if kind == "lottery":
        return {"kind": "lottery", "result": field(raw, "result", "str", where),
                "publishedOn": field(raw, "publishedOn", "str", where),
                "officialUrl": field(raw, "officialUrl", "str", where)}
    if kind == "beacon":
        return {"kind": "beacon", "round": field(raw, "round", "u64", where),
                "randomnessHex": field(raw, "randomness", "str", where),
                "signatureHex": field(raw, "signature", "str", where)}
    raise Unreadable("%s.kind %r is neither lottery nor beacon" % (where, kind))


def decoded_result(result, where):
    """published_result: a beacon's randomness is 32 bytes of hex, its signature hex."""
    if result["kind"] == "beacon":
        result["randomness"] = hash_from_hex(result["randomnessHex"])
        if result["randomness"] is None:
            raise Unreadable("%s: the randomness is not 64 hex digits" % where)
        result["signature"] = bytes_from_hex(result["signatureHex"])
        if result["signature"] is None:
            raise Unreadable("%s: the signature is not hex" % where)
    return result


def read_draw(raw):
    """PublishedDrawDto::to_published, with the fields the extra checks need."""
    where = "file"
    draw = {
        "format": field(raw, "format", "str", where),
        "raffleId": field(raw, "raffleId", "i64", where),
        "raffleTitle": field(raw, "raffleTitle", "str", where),
        "maxTickets": field(raw, "maxTickets", "u32", where),
        "ruleText": field(raw, "rule", "str", where, RULE_V1),
        "saltHex": field(raw, "salt", "str", where),
        "rootHex": field(raw, "root", "str", where),
        "size": field(raw, "size", "u32", where),
        "frozenAt": field(raw, "frozenAt", "str", where),
    }
    if draw["format"] not in (FORMAT_V1, FORMAT_V2):
        raise Unreadable("not a %s file (format %r)" % (FORMAT_V2, draw["format"]))
    first_format = draw["format"] == FORMAT_V1
    rule = RULE_V1 if first_format else rust_trim(draw["ruleText"])
    if rule not in RULES:
        raise Unreadable("unknown rule %r" % draw["ruleText"])
    draw["rule"] = rule
    draw["salt"] = hash_from_hex(draw["saltHex"])
    if draw["salt"] is None:
        raise Unreadable("the salt is not 64 hex digits")
    draw["root"] = hash_from_hex(draw["rootHex"])
    if draw["root"] is None:
        raise Unreadable("the root is not 64 hex digits")
    entries = []
    for i, entry in enumerate(field(raw, "entries", "list", where)):
        if not isinstance(entry, list) or len(entry) != 2:
            raise Unreadable("entries[%d] is not [number, tag]" % i)
        number, tag_hex = entry
        if isinstance(number, bool) or not isinstance(number, int) or not 0 <= number <= U32_MAX:
            raise Unreadable("entries[%d]: the number is not a u32" % i)
        tag = hash_from_hex(tag_hex) if isinstance(tag_hex, str) else None
        if tag is None:
            raise Unreadable("the tag of number %d is not 64 hex digits" % number)
        entries.append((number, tag))
    draw["entries"] = entries
    prizes = []
    for i, p in enumerate(field(raw, "prizes", "list", where)):
        pw = "prizes[%d]" % i
        prize = {
            "position": field(p, "position", "u32", pw),
            "title": field(p, "title", "str", pw),
            "source": read_source(field(p, "source", "obj", pw), pw + ".source"),
            "winner": field(p, "winningNumber", "u32", pw, None),
        }
        single = field(p, "result", "obj", pw, None)
        single = read_result(single, pw + ".result") if single is not None else None
        listed = []
        for j, r in enumerate(field(p, "results", "list", pw, [])):
            rw = "%s.results[%d]" % (pw, j)
            listed.append({"source": field(r, "source", "u32", rw),
                           "result": read_result(field(r, "result", "obj", rw), rw + ".result"),
                           "recordedAt": field(r, "recordedAt", "str", rw)})
        prize["deciding"] = single
        if first_format:
            prize["results"] = ([] if single is None else
                                [{"source": 0, "result": decoded_result(single, pw + ".result"),
                                  "recordedAt": None}])
        else:
            for j, r in enumerate(listed):
                decoded_result(r["result"], "%s.results[%d].result" % (pw, j))
            prize["results"] = listed
        prizes.append(prize)
    draw["prizes"] = prizes
    return draw


def read_inclusion(raw):
    where = "proof"
    if field(raw, "format", "str", where) != INCLUSION_FORMAT:
        raise Unreadable("not a %s file" % INCLUSION_FORMAT)
    proof = {
        "raffleId": field(raw, "raffleId", "i64", where),
        "raffleTitle": field(raw, "raffleTitle", "str", where, ""),
        "reference": field(raw, "reference", "str", where),
        "salt": bytes_from_hex(field(raw, "salt", "str", where)),
        "tag": hash_from_hex(field(raw, "tag", "str", where)),
        "root": hash_from_hex(field(raw, "root", "str", where)),
        "size": field(raw, "size", "u64", where),
        "numbers": [],
    }
    for key in ("salt", "tag", "root"):
        if proof[key] is None:
            raise Unreadable("the proof's %s is not hex of the right length" % key)
    for i, n in enumerate(field(raw, "numbers", "list", where)):
        nw = "numbers[%d]" % i
        path = []
        for h in field(n, "path", "list", nw):
            digest = hash_from_hex(h) if isinstance(h, str) else None
            if digest is None:
                raise Unreadable("%s.path has a hash that is not 64 hex digits" % nw)
            path.append(digest)
        proof["numbers"].append({"number": field(n, "number", "u32", nw),
                                 "index": field(n, "index", "u64", nw), "path": path})
    return proof


# ---------------------------------------------------------------------------------------------
# Words. Step wording follows the product's catalogue (crates/text/locales/*.ftl).

TEXT = {
    "title": ("Verificación del sorteo «{title}» (rifa {id}; formato {format}; regla {rule}; rifa del 1 al {max})",
              "Check of the draw of “{title}” (raffle {id}; format {format}; rule {rule}; raffle from 1 to {max})"),
    "root-published": ("Huella publicada (raíz Merkle): {root}", "Published fingerprint (Merkle root): {root}"),
    "sorted": ("La lista está ordenada de menor a mayor, sin números repetidos ({n} entradas).",
               "The list is sorted from lowest to highest, with no repeated number ({n} entries)."),
    "not-sorted": ("La lista no está ordenada: el número en la posición {index} no es mayor que el anterior.",
                   "The list is not sorted: the number at position {index} is not greater than the one before."),
    "in-raffle": ("Todos los números de la lista existen en una rifa del 1 al {max}.",
                  "Every number of the list exists in a raffle from 1 to {max}."),
    "not-in-raffle": ("La lista tiene el número {number}, que no existe en una rifa del 1 al {max}.",
                      "The list has number {number}, which does not exist in a raffle from 1 to {max}."),
    "size-matches": ("El tamaño publicado ({size}) es el número de entradas de la lista.",
                     "The published size ({size}) is the number of entries of the list."),
    "size-differs": ("El tamaño publicado ({size}) NO es el número de entradas de la lista ({n}).",
                     "The published size ({size}) is NOT the number of entries of the list ({n})."),
    "root-matches": ("La huella de la lista ({n} números vendidos) coincide con la publicada al cerrar las ventas.",
                     "The list's fingerprint ({n} sold numbers) matches the one published when sales closed."),
    "root-differs": ("La huella de la lista NO coincide con la publicada: calculada {computed}.",
                     "The list's fingerprint does NOT match the published one: computed {computed}."),
    "order-ok": ("Los premios están en orden de posición (el 1 primero); cada uno se sortea conociendo los ganadores anteriores.",
                 "The prizes are in position order (1 first); each is drawn knowing the earlier winners."),
    "order-bad": ("Los premios NO están en orden de posición: {positions}.",
                  "The prizes are NOT in position order: {positions}."),
    "prize": ("Premio {position}: «{title}»", "Prize {position}: “{title}”"),
    "source-lottery": ("fuente {i}: lotería «{name}», {date} {time} ({zone})",
                       "source {i}: lottery “{name}”, {date} {time} ({zone})"),
    "source-round": ("fuente {i}: ronda {round} de drand quicknet", "source {i}: drand quicknet round {round}"),
    "time-order": ("Orden en el tiempo: la lista se congeló ({frozen}) {gap} antes del sorteo de la {source} ({at}).",
                   "Time order: the list was frozen ({frozen}) {gap} before the draw of {source} ({at})."),
    "time-order-bad": ("Orden en el tiempo: la lista se congeló ({frozen}) NO antes del sorteo de la {source} ({at}).",
                       "Time order: the list was frozen ({frozen}) NOT before the draw of {source} ({at})."),
    "time-margin": ("  (el producto exige al menos 10 minutos entre el congelamiento y cada fuente; aquí hay menos)",
                    "  (the product requires at least 10 minutes between the freeze and each source; here there are fewer)"),
    "frozen-unreadable": ("No se puede leer la hora del congelamiento (frozenAt {frozen}): no se puede comprobar el orden en el tiempo.",
                          "The freeze's time (frozenAt {frozen}) cannot be read: the time order cannot be checked."),
    "published-matches": ("El archivo publica {what} = {value}, lo que da su fuente.",
                          "The file publishes {what} = {value}, what its source gives."),
    "published-differs": ("El archivo publica {what} = {value}, pero su fuente da {computed}.",
                          "The file publishes {what} = {value}, but its source gives {computed}."),
    "chain-v2": ("Cadena: la lotería; si su resultado no da ganador o no se registra antes del plazo ({deadline}), la ronda {round} de drand (la primera publicada 10 minutos o más después del plazo, {at}).",
                 "Chain: the lottery; if its result gives no winner or is not recorded by the deadline ({deadline}), drand round {round} (the first published 10 minutes or more after the deadline, {at})."),
    "round-matches": ("La ronda {used} usada es la que la cadena fija en la fuente {source}.",
                      "Round {used} used is the one the chain fixes at source {source}."),
    "round-differs": ("Se usó la ronda {used} de drand en la fuente {source}, pero la cadena fija {announced}.",
                      "drand round {used} was used at source {source}, but the chain fixes {announced}."),
    "randomness-ok": ("El azar de la ronda {round} es el SHA-256 de su firma.",
                      "Round {round}'s randomness is the SHA-256 of its signature."),
    "randomness-bad": ("El azar publicado de la ronda {round} NO es el SHA-256 de su firma (o la firma no tiene 48 bytes).",
                       "Round {round}'s published randomness is NOT the SHA-256 of its signature (or the signature is not 48 bytes)."),
    "bls": ("Firma BLS de la ronda {round} NO comprobada aquí (la biblioteca estándar de Python no trae BLS12-381): compara la firma con {url}, o usa `rifa-api verify-draw`.",
            "Round {round}'s BLS signature NOT checked here (Python's standard library has no BLS12-381): compare the signature with {url}, or run `rifa-api verify-draw`."),
    "recorded-ok": ("El resultado de la fuente {source} se registró ({recorded}) después de su sorteo ({draws}).",
                    "Source {source}'s result was recorded ({recorded}) after its draw ({draws})."),
    "recorded-bad": ("El resultado de la fuente {source} figura registrado ({recorded}) NO después de su sorteo ({draws}).",
                     "Source {source}'s result is shown recorded ({recorded}) NOT after its draw ({draws})."),
    "recorded-deadline-ok": ("El resultado de la fuente {source} se registró ({recorded}) después de su sorteo ({draws}) y dentro del plazo ({deadline}).",
                             "Source {source}'s result was recorded ({recorded}) after its draw ({draws}) and by the deadline ({deadline})."),
    "recorded-deadline-bad": ("El resultado de la fuente {source} figura registrado ({recorded}) fuera de su ventana: después del sorteo ({draws}) y hasta el plazo ({deadline}).",
                              "Source {source}'s result is shown recorded ({recorded}) outside its window: after the draw ({draws}) and by the deadline ({deadline})."),
    "deciding-ok": ("El resultado que el archivo da como decisivo («result») es el de la fuente {source}, la que decidió.",
                    "The result the file gives as deciding (`result`) is source {source}'s, the one that decided."),
    "deciding-bad": ("El resultado que el archivo da como decisivo («result») NO es el de la fuente {source}, la que decidió.",
                     "The result the file gives as deciding (`result`) is NOT source {source}'s, the one that decided."),
    "winner-confirmed": ("El resultado y la regla dan el número {winner}, el publicado.",
                         "The result and the rule give number {winner}, the one published."),
    "winner-differs": ("El resultado y la regla dan el número {computed}, pero se publicó {published}.",
                       "The result and the rule give number {computed}, but {published} was published."),
    "unreadable-result": ("El resultado publicado no se puede leer como lo lee la regla.",
                          "The published result cannot be read as the rule reads it."),
    "waits-for": ("Todavía no se sorteó: espera al premio {position} (los premios se sortean en orden, cada uno conociendo los ganadores anteriores).",
                  "Not drawn yet: it waits for prize {position} (prizes are drawn in order, each knowing the earlier winners)."),
    "drawn-too-soon": ("Se publicó el ganador {published}, pero el premio {position}, anterior, todavía no tiene ganador: este no puede sortearse aún.",
                       "Winner {published} was published, but the earlier prize {position} has no winner yet: this one cannot be drawn yet."),
    "not-drawn": ("Todavía no se sorteó: espera el resultado de la fuente {source}.",
                  "Not drawn yet: it waits for the result of source {source}."),
    "lapse-note": ("Un resultado de lotería que no se registró antes del plazo: comprueba en {url} que la lotería de verdad no publicó a tiempo.",
                   "A lottery result not recorded by its deadline: check at {url} that the lottery really did not publish in time."),
    "lottery-note": ("Compara el resultado «{result}» con el oficial: {url}",
                     "Compare the result “{result}” with the official one: {url}"),
    "ref-found": ("La referencia {ref} tiene {n} número(s) en la lista: {numbers}; la prueba de inclusión de cada uno lleva a la huella publicada.",
                  "Reference {ref} has {n} number(s) in the list: {numbers}; each one's inclusion proof leads to the published fingerprint."),
    "ref-unproven": ("La referencia {ref} tiene números en la lista ({numbers}), pero su prueba de inclusión NO lleva a la huella publicada.",
                     "Reference {ref} has numbers in the list ({numbers}), but their inclusion proof does NOT lead to the published fingerprint."),
    "ref-none": ("La referencia {ref} no tiene números en esta lista. Revisa que la hayas copiado bien del comprobante.",
                 "Reference {ref} has no numbers in this list. Check that you copied it correctly from the receipt."),
    "incl-title": ("Prueba de inclusión de la referencia {ref} (rifa {id}, {n} número(s))",
                   "Inclusion proof of reference {ref} (raffle {id}, {n} number(s))"),
    "incl-tag-ok": ("La etiqueta {tag} es SHA-256(\"rifa-ledger-v1\" ‖ 0x00 ‖ sal ‖ {norm}).",
                    "The tag {tag} is SHA-256(\"rifa-ledger-v1\" ‖ 0x00 ‖ salt ‖ {norm})."),
    "incl-tag-bad": ("La etiqueta de la prueba NO es la de la referencia con esa sal (calculada {tag}).",
                     "The proof's tag is NOT the reference's under that salt (computed {tag})."),
    "incl-number-ok": ("El número {number} (posición {index} de {size}) lleva a la huella {root}.",
                       "Number {number} (index {index} of {size}) leads to the fingerprint {root}."),
    "incl-number-bad": ("El número {number} (posición {index} de {size}) NO lleva a la huella {root}.",
                        "Number {number} (index {index} of {size}) does NOT lead to the fingerprint {root}."),
    "incl-none": ("La prueba no trae ningún número.", "The proof carries no number."),
    "incl-compare": ("Compara esa huella con la publicada al congelar la lista (página de verificación de la rifa, correo del congelamiento), o pasa también el archivo publicado.",
                     "Compare that fingerprint with the one published at the freeze (the raffle's verification page, the freeze e-mail), or give the published file too."),
    "incl-same": ("La prueba es de esta lista: misma rifa, sal, huella y tamaño.",
                  "The proof is of this list: same raffle, salt, fingerprint and size."),
    "incl-other": ("La prueba NO es de esta lista (difiere: {what}).", "The proof is NOT of this list (differs: {what})."),
    "incl-entry-ok": ("El número {number} está en la lista publicada, en la posición {index}, con esa etiqueta.",
                      "Number {number} is in the published list, at index {index}, with that tag."),
    "incl-entry-bad": ("El número {number} NO está en la lista publicada en la posición {index} con esa etiqueta.",
                       "Number {number} is NOT in the published list at index {index} with that tag."),
    "holds": ("Todo lo comprobado se cumple.", "Everything checked holds."),
    "holds-but-bls": ("Todo lo comprobado se cumple; falta solo comparar la firma de cada ronda de drand con su registro público (arriba).",
                      "Everything checked holds; only each drand round's signature is left to compare with its public record (above)."),
    "fails": ("Algo NO se cumple: mira las líneas marcadas con ✗.", "Something does NOT hold: see the lines marked ✗."),
    "unreadable": ("No se puede leer: {error}", "Cannot be read: {error}"),
    "none": ("ninguno", "none"),
    "and-after": ("después", "after"),
    "source-word": ("fuente", "source"),
}

STEP_TEXT = {
    "lastDigits": ("El resultado {result} termina en {used} (sus últimos {digits} dígitos): sale el número {number}.",
                   "The result {result} ends in {used} (its last {digits} digits): number {number} is drawn."),
    "beacon": ("La ronda {round} de drand dio el azar {randomnessHex}; sus primeros 8 bytes, divididos entre {max}, dejan un resto que, más 1, es el número {number}.",
               "drand round {round} gave the randomness {randomnessHex}; its first 8 bytes divided by {max} leave a remainder that, plus 1, is number {number}."),
    "notInRaffle": ("El número {number_raw} no existe en esta rifa (va del 1 al {maxTickets}): se busca hacia arriba.",
                    "Number {number_raw} does not exist in this raffle (it runs from 1 to {maxTickets}): the search goes upward."),
    "notSold": ("El número {number} no se vendió: gana el siguiente número vendido hacia arriba, el {next}.",
                "Number {number} was not sold: the next sold number upward, {next}, wins."),
    "alreadyWon": ("El número {number} ya ganó un premio anterior: gana el siguiente número vendido hacia arriba, el {next}.",
                   "Number {number} already won an earlier prize: the next sold number upward, {next}, wins."),
    "wrappedAround": ("Después del último número vendido, la búsqueda siguió desde el primero.",
                      "Past the last sold number, the search went on from the first."),
    "wins": ("Gana el número {number}.", "Number {number} wins."),
    "noWinner": ("No queda ningún número vendido que pueda ganar: el premio queda sin ganador.",
                 "No sold number is left to win: the prize has no winner."),
    "digits": ("El resultado {result} se lee por sus últimos {digits} dígitos: {used}.",
               "The result {result} is read by its last {digits} digits: {used}."),
    "beaconRandomness": ("La ronda {round} de drand dio el azar {randomnessHex}, leído como un número de 256 bits.",
                         "drand round {round} gave the randomness {randomnessHex}, read as a 256-bit number."),
    "names": ("El resultado nombra el número {number}.", "The result names number {number}."),
    "outsideRaffle": ("El número {number_raw} no existe en esta rifa (va del 1 al {maxTickets}).",
                      "Number {number_raw} does not exist in this raffle (it runs from 1 to {maxTickets})."),
    "notSoldNextSource": ("El número {number} no se vendió.", "Number {number} was not sold."),
    "alreadyWonNextSource": ("El número {number} ya ganó un premio anterior.", "Number {number} already won an earlier prize."),
    "incompleteRound": ("El número leído cae en la última vuelta incompleta de {count}: contarlo daría ventaja a algunos números.",
                        "The number read falls in the incomplete last round of {count}: counting it would favour some numbers."),
    "inPlay": ("Quedan {count} números vendidos en juego, ordenados de menor a mayor.",
               "{count} sold numbers are still in play, from lowest to highest."),
    "inPlay1": ("Queda 1 número vendido en juego.", "1 sold number is still in play."),
    "place": ("El número leído, dividido entre {count}, deja resto {remainder}: gana el que está en el lugar {place} de esa lista, el {number}.",
              "The number read, divided by {count}, leaves {remainder}: the one in place {place} of that list, {number}, wins."),
    "nextSource": ("Este resultado no da ganador: decide la siguiente fuente publicada de este premio.",
                   "This result gives no winner: the next published source of this prize decides."),
    "rehashed": ("Para no dar ventaja a nadie, se toma el SHA-256 de ese valor, {randomnessHex}, y se lee de nuevo.",
                 "So that no number is favoured, that value's SHA-256, {randomnessHex}, is read again."),
    "sourceLapsed0": ("El resultado de la lotería no se registró antes del plazo ({deadline}): decide la siguiente fuente publicada de este premio.",
                      "The lottery's result was not recorded by its deadline ({deadline}): the next published source of this prize decides."),
    "sourceLapsed": ("El resultado de la fuente {source} no se registró antes del plazo ({deadline}): decide la siguiente fuente publicada de este premio.",
                     "The result of source {source} was not recorded by its deadline ({deadline}): the next published source of this prize decides."),
}


class Words:
    def __init__(self, lang, max_tickets=1):
        self.i = 1 if lang == "en" else 0
        self.max = max_tickets

    def __call__(self, key, **values):
        return TEXT[key][self.i].format(**values)

    def number(self, n):
        """A number as people read it: zero-padded to max(4, digits of the size) (ticket.rs)."""
        return "—" if n is None else str(n).zfill(max(4, len(str(self.max))))

    def step(self, step):
        values = dict(step)
        for key in ("number", "next"):
            if key in values:
                values[key + "_raw"] = values[key]
                values[key] = self.number(values[key])
        if "remainder" in values:
            values["place"] = values["remainder"] + 1
        values["max"] = self.max
        key = step["step"]
        if key == "inPlay" and step["count"] == 1:
            key = "inPlay1"
        elif key == "sourceLapsed" and step["source"] == 0:
            key = "sourceLapsed0"
        return STEP_TEXT[key][self.i].format(**values)


def hms(seconds):
    seconds = abs(seconds)
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    out = ("%d d " % days if days else "") + "%d h %02d min" % (hours, minutes)
    return out


# ---------------------------------------------------------------------------------------------
# The check of a published draw (verify.rs check, numbers_of) and of a buyer's proof.


class Report:
    def __init__(self):
        self.lines = []
        self.holds = True

    def ok(self, text, indent=0):
        self.lines.append("  " * indent + "✓ " + text)

    def bad(self, text, indent=0):
        self.lines.append("  " * indent + "✗ " + text)
        self.holds = False

    def check(self, condition, good, wrong, indent=0):
        (self.ok if condition else self.bad)(good if condition else wrong, indent)
        return condition

    def info(self, text, indent=0):
        self.lines.append("  " * indent + "i " + text)

    def plain(self, text, indent=0):
        self.lines.append("  " * indent + text)


def links_of(draw, prize):
    """verify.rs links_of: the chain the rules fix, and what each source gave; a source with no
    result before one that has a result lapsed at its deadline (only a lottery can)."""
    chain = chain_of(draw["rule"], prize["source"])
    given_sources = [r["source"] for r in prize["results"]]
    last_given = max(given_sources) if given_sources else None
    links = []
    for index, source in enumerate(chain):
        given = next((r for r in prize["results"] if r["source"] == index), None)
        deadline = source_deadline(source)
        if given is not None:
            result = given["result"]
            input_ = ({"kind": "lottery", "result": result["result"]} if result["kind"] == "lottery" else
                      {"kind": "beacon", "round": result["round"], "randomness": result["randomness"]})
            state = {"kind": "recorded", "input": input_}
        elif deadline is not None and last_given is not None and last_given > index:
            state = {"kind": "lapsed", "deadline": instant_secs(deadline)}
        else:
            state = {"kind": "awaited"}
        links.append({"digits": digits_read(source, draw["rule"], draw["maxTickets"]), "state": state})
    return chain, links


def check_draw(draw, words, report, findings):
    """Every check, in words on `report`; `findings` gets one kind name per finding."""
    max_tickets, entries = draw["maxTickets"], draw["entries"]
    w = words
    report.plain(w("title", title=draw["raffleTitle"], id=draw["raffleId"], format=draw["format"],
                   rule=draw["rule"], max=max_tickets))
    report.plain(w("root-published", root=draw["root"].hex()))

    unsorted = next((i for i in range(len(entries) - 1) if entries[i][0] >= entries[i + 1][0]), None)
    if unsorted is None:
        report.ok(w("sorted", n=len(entries)))
    else:
        findings.append("notSorted")
        report.bad(w("not-sorted", index=unsorted + 2))
    outside = [n for n, _ in entries if not 1 <= n <= max_tickets]
    for number in outside:
        findings.append("notInRaffle")
        report.bad(w("not-in-raffle", number=number, max=max_tickets))
    if not outside:
        report.ok(w("in-raffle", max=max_tickets))
    if draw["size"] == len(entries):
        report.ok(w("size-matches", size=draw["size"]))
    else:
        findings.append("sizeDiffers")
        report.bad(w("size-differs", size=draw["size"], n=len(entries)))
    levels = tree_levels([leaf_hash(n, t) for n, t in entries])
    computed = tree_root(levels)
    if computed == draw["root"]:
        findings.append("rootMatches")
        report.ok(w("root-matches", n=len(entries)))
    else:
        findings.append("rootDiffers")
        report.bad(w("root-differs", computed=computed.hex()))

    positions = [p["position"] for p in draw["prizes"]]
    if all(a < b for a, b in zip(positions, positions[1:])):
        report.ok(w("order-ok"))
    else:
        findings.append("prizesOutOfOrder")
        report.bad(w("order-bad", positions=", ".join(map(str, positions))))

    frozen = parse_instant(draw["frozenAt"])
    sold = {n for n, _ in entries}
    won, waiting_for = set(), None
    for prize in draw["prizes"]:
        position, source = prize["position"], prize["source"]
        report.plain("")
        report.plain(w("prize", position=position, title=prize["title"]))
        chain, links = links_of(draw, prize)

        # When each source draws, and that the list was frozen before.
        for i, link_source in enumerate(chain):
            at = source_draws_at(link_source)
            if link_source["kind"] == "lottery":
                name = w("source-lottery", i=i, name=link_source["lotteryName"],
                         date=link_source["drawDateValue"].isoformat(),
                         time=link_source["drawTimeValue"].strftime("%H:%M"), zone=link_source["zoneName"])
            else:
                name = w("source-round", i=i, round=link_source["round"])
            at_text = instant_secs(at)
            if frozen is None:
                findings.append("timeOrder")
                report.bad(w("frozen-unreadable", frozen=draw["frozenAt"]), 1)
                break
            before = (frozen[0], frozen[1]) < (at, 0)
            if before:
                report.ok(w("time-order", frozen=draw["frozenAt"], gap=hms(at - frozen[0]), source=name,
                            at=at_text), 1)
                if at - frozen[0] <= FREEZE_MARGIN:
                    report.plain(w("time-margin"), 1)
            else:
                findings.append("timeOrder")
                report.bad(w("time-order-bad", frozen=draw["frozenAt"], source=name, at=at_text), 1)

        # What the file says about its own source, against what the source gives.
        if source["kind"] == "lottery":
            draws_at, deadline = lottery_draws_at(source), source_deadline(source)
            fallback = first_round_from(deadline + FREEZE_MARGIN)
            for what, published, computed_value, same in (
                    ("drawsAt", source["drawsAt"], instant_millis(draws_at),
                     (parse_instant(source["drawsAt"]) or (None,))[0] == draws_at),
                    ("deadline", source["deadline"], instant_millis(deadline),
                     (parse_instant(source["deadline"]) or (None,))[0] == deadline),
                    ("fallbackRound", source["fallbackRound"], fallback, source["fallbackRound"] == fallback)):
                if published in ("", None):
                    continue  # files published before the field was kept
                if same:
                    report.ok(w("published-matches", what=what, value=published), 1)
                else:
                    findings.append("publishedSourceDiffers")
                    report.bad(w("published-differs", what=what, value=published, computed=computed_value), 1)
            if draw["rule"] != RULE_V1:
                report.info(w("chain-v2", deadline=instant_secs(deadline), round=fallback,
                              at=instant_secs(round_time(fallback))), 1)

        # Beacon results: the round the chain fixes there, randomness = SHA-256(signature).
        for result in prize["results"]:
            r = result["result"]
            if result["recordedAt"] is not None:
                check_recorded_at(draw, chain, result, w, report, findings)
            if r["kind"] == "lottery":
                report.info(w("lottery-note", result=r["result"], url=r["officialUrl"]), 1)
                continue
            index = result["source"]
            announced = chain[index]["round"] if index < len(chain) and chain[index]["kind"] == "beacon" else 0
            if announced == r["round"]:
                report.ok(w("round-matches", used=r["round"], source=index), 1)
            else:
                findings.append("beaconRoundDiffers")
                report.bad(w("round-differs", used=r["round"], source=index, announced=announced), 1)
            sane = len(r["signature"]) == QUICKNET_SIGNATURE_BYTES and sha256(r["signature"]) == r["randomness"]
            if sane:
                report.ok(w("randomness-ok", round=r["round"]), 1)
            else:
                findings.append("beaconInvalid")
                report.bad(w("randomness-bad", round=r["round"]), 1)
            findings.append("blsNotChecked")
            report.info(w("bls", round=r["round"], url=DRAND_ROUND_URL.format(round=r["round"])), 1)

        # The winner, recomputed in order: a prize waits for every prize before it.
        if waiting_for is not None:
            if prize["winner"] is None:
                findings.append("notDrawn")
                report.ok(w("waits-for", position=waiting_for), 1)
            else:
                findings.append("winnerDiffers")
                report.bad(w("drawn-too-soon", position=waiting_for, published=w.number(prize["winner"])), 1)
            continue
        try:
            settlement = settle_prize(draw["rule"], max_tickets, sold, won, links)
        except NotANumber:
            findings.append("resultUnreadable")
            report.bad(w("unreadable-result"), 1)
            continue
        if any(s["step"] == "sourceLapsed" for s in settlement["steps"]):
            report.info(w("lapse-note", url=source.get("sourceUrl", "")), 1)
        if settlement["kind"] == "awaiting":
            waiting_for = position
            if prize["winner"] is None:
                findings.append("notDrawn")
                report.ok(w("not-drawn", source=settlement["source"]), 1)
            else:
                findings.append("winnerDiffers")
                report.bad(w("winner-differs", computed=w.number(None), published=w.number(prize["winner"])), 1)
        else:
            winner = settlement["winner"]
            if winner is not None:
                won.add(winner)
            if winner == prize["winner"]:
                findings.append("winnerConfirmed")
                report.ok(w("winner-confirmed", winner=w.number(winner)), 1)
            else:
                findings.append("winnerDiffers")
                report.bad(w("winner-differs", computed=w.number(winner), published=w.number(prize["winner"])), 1)
        for step in settlement["steps"]:
            report.plain("· " + w.step(step), 2)
        if settlement["kind"] == "decided" and draw["format"] == FORMAT_V2 and prize["deciding"] is not None:
            deciding = next((r["result"] for r in prize["results"] if r["source"] == settlement["source"]), None)
            if deciding is not None and same_result(deciding, prize["deciding"]):
                report.ok(w("deciding-ok", source=settlement["source"]), 1)
            else:
                findings.append("publishedResultDiffers")
                report.bad(w("deciding-bad", source=settlement["source"]), 1)
    return levels


def same_result(a, b):
    """Two published results are the same result (hex compared as bytes)."""
    if a["kind"] != b["kind"]:
        return False
    if a["kind"] == "lottery":
        return all(a[k] == b[k] for k in ("result", "publishedOn", "officialUrl"))
    return (a["round"] == b["round"] and hash_from_hex(a["randomnessHex"]) == hash_from_hex(b["randomnessHex"])
            and bytes_from_hex(a["signatureHex"]) == bytes_from_hex(b["signatureHex"]))


def check_recorded_at(draw, chain, result, w, report, findings):
    """A result is recorded after its source draws and, for a lottery followed by a round,
    by its deadline (the API refuses it otherwise)."""
    index, r = result["source"], result["result"]
    at = parse_instant(result["recordedAt"])
    if index >= len(chain):
        return
    source = chain[index]
    draws = source_draws_at(source) if r["kind"] == source["kind"] else (
        round_time(r["round"]) if r["kind"] == "beacon" else None)
    if draws is None:
        return
    deadline = source_deadline(source) if len(chain) > index + 1 and r["kind"] == "lottery" else None
    values = dict(source=index, recorded=result["recordedAt"], draws=instant_secs(draws),
                  deadline=instant_secs(deadline) if deadline is not None else "")
    holds = at is not None and (at[0], at[1]) >= (draws, 0) and (deadline is None or (at[0], at[1]) <= (deadline, 0))
    key = "recorded-deadline" if deadline is not None else "recorded"
    if holds:
        report.ok(w(key + "-ok", **values), 1)
    else:
        findings.append("recordedAtOrder")
        report.bad(w(key + "-bad", **values), 1)


def numbers_of(draw, levels, reference):
    """verify.rs numbers_of: the reference's numbers, each with whether its proof holds."""
    tag = purchase_tag(draw["salt"], reference)
    size = len(draw["entries"])
    found = []
    for index, (number, entry_tag) in enumerate(draw["entries"]):
        if entry_tag != tag:
            continue
        proof = inclusion_proof(levels, index)
        proven = proof is not None and verify_inclusion(leaf_hash(number, entry_tag), index, size, proof,
                                                        draw["root"])
        found.append((number, proven))
    return found


def check_reference(draw, levels, reference, words, report):
    found = numbers_of(draw, levels, reference)
    shown = ", ".join(words.number(n) for n, _ in found)
    ref = normalise_reference(reference)
    report.plain("")
    if not found:
        report.bad(words("ref-none", ref=ref))
    elif all(proven for _, proven in found):
        report.ok(words("ref-found", ref=ref, n=len(found), numbers=shown))
    else:
        report.bad(words("ref-unproven", ref=ref, numbers=shown))


def check_inclusion(proof, draw, words, report):
    """A rifa-inclusion-v1 file: its tag is the reference's, each path leads to its root, and
    (with the published file) it is that file's list."""
    report.plain("")
    report.plain(words("incl-title", ref=proof["reference"], id=proof["raffleId"], n=len(proof["numbers"])))
    tag = purchase_tag(proof["salt"], proof["reference"])
    report.check(tag == proof["tag"],
                 words("incl-tag-ok", tag=tag.hex(), norm=normalise_reference(proof["reference"])),
                 words("incl-tag-bad", tag=tag.hex()), 1)
    if not proof["numbers"]:
        report.bad(words("incl-none"), 1)
    for n in proof["numbers"]:
        holds = verify_inclusion(leaf_hash(n["number"], proof["tag"]), n["index"], proof["size"], n["path"],
                                 proof["root"])
        values = dict(number=words.number(n["number"]), index=n["index"], size=proof["size"],
                      root=proof["root"].hex())
        report.check(holds, words("incl-number-ok", **values), words("incl-number-bad", **values), 1)
    if draw is None:
        report.info(words("incl-compare"), 1)
        return
    differs = [what for what, a, b in (("raffleId", proof["raffleId"], draw["raffleId"]),
                                       ("salt", proof["salt"], draw["salt"]),
                                       ("root", proof["root"], draw["root"]),
                                       ("size", proof["size"], len(draw["entries"]))) if a != b]
    report.check(not differs, words("incl-same"), words("incl-other", what=", ".join(differs)), 1)
    for n in proof["numbers"]:
        at = n["index"]
        present = at < len(draw["entries"]) and draw["entries"][at] == (n["number"], proof["tag"])
        values = dict(number=words.number(n["number"]), index=at)
        report.check(present, words("incl-entry-ok", **values), words("incl-entry-bad", **values), 1)


def verify(draw_raw, reference=None, proof_raw=None, lang="es"):
    """(report, findings) for a parsed published file (None with a proof alone); raises
    Unreadable."""
    draw = read_draw(draw_raw) if draw_raw is not None else None
    proof = read_inclusion(proof_raw) if proof_raw is not None else None
    words = Words(lang, draw["maxTickets"] if draw else 1)
    report, findings = Report(), []
    if draw is not None:
        levels = check_draw(draw, words, report, findings)
        if reference is not None:
            check_reference(draw, levels, reference, words, report)
    if proof is not None:
        check_inclusion(proof, draw, words, report)
    report.plain("")
    if not report.holds:
        report.plain(words("fails"))
    else:
        report.plain(words("holds-but-bls" if "blsNotChecked" in findings else "holds"))
    return report, findings


# ---------------------------------------------------------------------------------------------
# The test vectors (docs/formats/draw-vectors.json): recompute every case and compare.


def vector_input(raw):
    """A reading or link input of the vectors, decoded."""
    if raw["kind"] == "lottery":
        return {"kind": "lottery", "result": raw["result"]}
    return {"kind": "beacon", "round": raw["round"], "randomness": bytes.fromhex(raw["randomness"])}


def vector_link(raw):
    state = raw["state"]
    if state["kind"] == "recorded":
        state = {"kind": "recorded", "input": vector_input(state["input"])}
    return {"digits": raw.get("digits", 0), "state": state}


def run_rule_case(case):
    """One `rules` case: the reading's step and the rule's decision (rule.rs / fair.rs)."""
    rule, max_tickets = case["rule"], case["maxTickets"]
    sold, won = set(case["sold"]), set(case["won"])
    reading = case["reading"]
    try:
        if rule == RULE_V1:
            _, winner, steps = apply_v1(vector_input(reading), max_tickets, sold, won)
            return {"decision": "winner" if winner is not None else "noWinner", "number": winner, "steps": steps}
        if reading["kind"] == "lottery":
            parsed, read = read_lottery(reading["result"], reading["digits"])
        else:
            parsed, read = read_beacon(reading["round"], bytes.fromhex(reading["randomness"]))
        decision, number, steps = decide(rule, parsed, max_tickets, sold, won)
        return {"decision": decision, "number": number, "steps": [read] + steps}
    except NotANumber:
        return {"error": "notANumber"}


def run_chain_case(case):
    prizes = [p if "decided" in p else {"chain": [vector_link(link) for link in p["chain"]]}
              for p in case["prizes"]]
    try:
        settled = settle_in_order(case["rule"], case["maxTickets"], set(case["sold"]), prizes)
    except NotANumber as error:
        return {"error": "notANumber", "index": error.index}
    return [dict(s, index=i) for i, s in settled]


def run_source_case(case):
    source = read_source(case["source"], "source")
    if source["kind"] == "beacon":
        return {"drawsAt": instant_millis(round_time(source["round"])), "deadline": None, "fallbackRound": None}
    deadline = source_deadline(source)
    return {"drawsAt": instant_millis(lottery_draws_at(source)), "deadline": instant_millis(deadline),
            "fallbackRound": first_round_from(deadline + FREEZE_MARGIN)}


def run_vectors(path):
    vectors = load_json(path)
    failures, count = [], 0

    def agree(section, name, got, expected):
        nonlocal count
        count += 1
        if got != expected:
            failures.append("%s %s:\n    expected %s\n    computed %s" % (
                section, name, json.dumps(expected, ensure_ascii=False), json.dumps(got, ensure_ascii=False)))

    agree("ledger", "emptyRoot", EMPTY_ROOT.hex(), vectors["ledger"]["emptyRoot"])
    for i, case in enumerate(vectors["ledger"]["tags"]):
        salt = bytes.fromhex(case["salt"])
        agree("ledger.tags", i, {"normalised": normalise_reference(case["reference"]),
                                 "tag": purchase_tag(salt, case["reference"]).hex()},
              {"normalised": case["normalised"], "tag": case["tag"]})
    raffle = vectors["ledger"]["raffle"]
    salt = bytes.fromhex(raffle["salt"])
    tags = {p["reference"]: purchase_tag(salt, p["reference"]).hex() for p in raffle["purchases"]}
    agree("ledger.raffle", "tags", [tags[p["reference"]] for p in raffle["purchases"]],
          [p["tag"] for p in raffle["purchases"]])
    entries = sorted((n, tags[p["reference"]]) for p in raffle["purchases"] for n in p["numbers"])
    agree("ledger.raffle", "entries", [list(e) for e in entries], raffle["entries"])
    leaves = [leaf_hash(n, bytes.fromhex(t)) for n, t in entries]
    agree("ledger.raffle", "leaves", [x.hex() for x in leaves], raffle["leaves"])
    levels = tree_levels(leaves)
    agree("ledger.raffle", "root", tree_root(levels).hex(), raffle["root"])
    for k, expected in enumerate(raffle["prefixRoots"]):
        agree("ledger.raffle", "prefixRoots[%d]" % k, tree_root(tree_levels(leaves[:k])).hex(), expected)
    for proof in raffle["proofs"]:
        path = inclusion_proof(levels, proof["index"])
        agree("ledger.raffle", "proof of %d" % proof["number"],
              {"number": entries[proof["index"]][0], "path": [h.hex() for h in path],
               "verifies": verify_inclusion(leaves[proof["index"]], proof["index"], len(leaves), path,
                                            tree_root(levels))},
              {"number": proof["number"], "path": proof["path"], "verifies": True})
    for i, case in enumerate(vectors["ledger"]["inclusionChecks"]):
        agree("ledger.inclusionChecks", "%d (%s)" % (i, case["what"]),
              verify_inclusion(bytes.fromhex(case["leaf"]), case["index"], case["size"],
                               [bytes.fromhex(h) for h in case["path"]], bytes.fromhex(case["root"])),
              case["verifies"])
    for i, case in enumerate(vectors["rules"]["cases"]):
        agree("rules", "%d (%s)" % (i, case["what"]), run_rule_case(case), case["expected"])
    for i, case in enumerate(vectors["chains"]["cases"]):
        agree("chains", "%d (%s)" % (i, case["what"]), run_chain_case(case), case["expected"])
    for i, case in enumerate(vectors["sources"]["cases"]):
        agree("sources", "%d (%s)" % (i, case["what"]), run_source_case(case), case["expected"])
    for i, case in enumerate(vectors["beacon"]["rounds"]):
        agree("beacon.rounds", i, instant_secs(round_time(case["round"])), case["time"])
    for i, case in enumerate(vectors["beacon"]["firstRoundFrom"]):
        at = parse_instant(case["at"])
        agree("beacon.firstRoundFrom", i, first_round_from(at[0], at[1]), case["round"])
    for i, case in enumerate(vectors["beacon"]["randomness"]):
        agree("beacon.randomness", i, sha256(bytes.fromhex(case["signature"])).hex(), case["randomness"])
    for i, case in enumerate(vectors["files"]["cases"]):
        report, findings = verify(case["file"], case.get("reference"), case.get("inclusion"))
        got = {"exit": 0 if report.holds else 1,
               "findings": sorted(set(findings)),
               "winners": winners_of(case["file"])}
        agree("files", "%d (%s)" % (i, case["what"]), got, case["expected"])
    return count, failures


def winners_of(raw):
    """Each prize's recomputed winner (None undrawn or no winner), as check_draw settles them."""
    draw = read_draw(raw)
    sold, won, out, waiting = {n for n, _ in draw["entries"]}, set(), [], False
    for prize in draw["prizes"]:
        if waiting:
            out.append(None)
            continue
        try:
            settlement = settle_prize(draw["rule"], draw["maxTickets"], sold, won, links_of(draw, prize)[1])
        except NotANumber:
            out.append("unreadable")
            continue
        waiting = settlement["kind"] == "awaiting"
        winner = settlement.get("winner") if settlement["kind"] == "decided" else None
        if winner is not None:
            won.add(winner)
        out.append(winner)
    return out


# ---------------------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Check a published Rifa draw (rifa-draw-v1/v2) offline. See docs/VERIFYING.md.")
    parser.add_argument("file", nargs="?", help="the published draw file (GET /api/raffles/{id}/draw/ledger)")
    parser.add_argument("--ref", "--reference", dest="reference", metavar="REFERENCE",
                        help="a purchase reference (RF-...): print its numbers and check their proofs")
    parser.add_argument("--inclusion", metavar="FILE", help="a buyer's rifa-inclusion-v1 proof file to check")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="language of the report (es)")
    parser.add_argument("--vectors", metavar="FILE", help="run this script against the test vectors")
    args = parser.parse_args(argv)
    try:
        sys.stdout.reconfigure(errors="replace")
    except AttributeError:
        pass

    if args.vectors:
        try:
            count, failures = run_vectors(args.vectors)
        except (Unreadable, KeyError, TypeError, ValueError) as error:
            print("vectors: cannot be read: %s" % error, file=sys.stderr)
            return 2
        for failure in failures:
            print("✗ " + failure)
        print("%d of %d vector checks agree." % (count - len(failures), count))
        return 0 if not failures else 1

    if not args.file and not args.inclusion:
        parser.error("give the published file, --inclusion FILE, or --vectors FILE")
    words = Words(args.lang)
    try:
        draw_raw = load_json(args.file) if args.file else None
        proof_raw = load_json(args.inclusion) if args.inclusion else None
        if args.reference is not None and draw_raw is None:
            parser.error("--ref needs the published file")
        report, _ = verify(draw_raw, args.reference, proof_raw, args.lang)
    except Unreadable as error:
        print(words("unreadable", error=error), file=sys.stderr)
        return 2
    print("\n".join(report.lines))
    return 0 if report.holds else 1


if __name__ == "__main__":
    sys.exit(main())
