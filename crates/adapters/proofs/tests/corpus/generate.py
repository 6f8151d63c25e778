#!/usr/bin/env python3
"""Deterministic generator of the payment-proof corpus.

Draws ~36 phone-screenshot payment receipts ("originals") with Pillow, derives
variants from their pixels (re-encoded, JPEG, cropped, scaled, WEBP, edited
amount with editor EXIF, phone EXIF), writes 6 hand-made text PDFs, and a
manifest.json with the ground truth of every file.

Usage (from anywhere):
    ~/.cache/rifa/corpus-venv/bin/python generate.py

Every output next to this script is deleted first and rewritten.  Randomness is
seeded per payment from a fixed seed, so the same Pillow/zlib/libjpeg/libwebp
versions produce the same bytes on every run.
"""

from __future__ import annotations

import hashlib
import io
import json
import random
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, PngImagePlugin

HERE = Path(__file__).resolve().parent
# crates/adapters/proofs/tests/corpus -> crates/adapters/pdf/fonts
FONT_DIR = HERE.parents[2] / "pdf" / "fonts"
FONT_REGULAR = FONT_DIR / "DejaVuSans.ttf"
FONT_BOLD = FONT_DIR / "DejaVuSans-Bold.ttf"

SEED = "rifa-proof-corpus-v1"
WIDTH = 540
FIRST_DAY = date(2026, 10, 1)
LAST_DAY = date(2026, 11, 27)
OUTPUT_EXTENSIONS = {".png", ".jpg", ".jpeg", ".webp", ".pdf"}

# --------------------------------------------------------------------------
# Fonts and small helpers
# --------------------------------------------------------------------------

_FONTS: dict[tuple[bool, int], ImageFont.FreeTypeFont] = {}


def font(size: int, bold: bool = False) -> ImageFont.FreeTypeFont:
    key = (bold, size)
    if key not in _FONTS:
        _FONTS[key] = ImageFont.truetype(
            str(FONT_BOLD if bold else FONT_REGULAR), size, layout_engine=ImageFont.Layout.BASIC
        )
    return _FONTS[key]


def hex_rgb(value: str) -> tuple[int, int, int]:
    value = value.lstrip("#")
    return tuple(int(value[i : i + 2], 16) for i in (0, 2, 4))  # type: ignore[return-value]


def group(digits: str, sep: str) -> str:
    out = []
    while len(digits) > 3:
        out.insert(0, digits[-3:])
        digits = digits[:-3]
    out.insert(0, digits)
    return sep.join(out)


def money_parts(cents: int) -> tuple[str, str]:
    return str(cents // 100), f"{cents % 100:02d}"


def plain_amount(cents: int) -> str:
    whole, frac = money_parts(cents)
    return f"{whole}.{frac}"


def digits(rng: random.Random, n: int, first_nonzero: bool = False) -> str:
    s = "".join(rng.choice("0123456789") for _ in range(n))
    if first_nonzero and s[0] == "0":
        s = rng.choice("123456789") + s[1:]
    return s


MESES = ["enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto",
         "septiembre", "octubre", "noviembre", "diciembre"]
MESES_CORTOS = ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sep", "oct", "nov", "dic"]
MONTHS_EN = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]


def hour12(t: datetime, es: bool = True, zero_pad: bool = True) -> str:
    h = t.hour % 12 or 12
    hh = f"{h:02d}" if zero_pad else str(h)
    if es:
        return f"{hh}:{t.minute:02d} {'a. m.' if t.hour < 12 else 'p. m.'}"
    return f"{hh}:{t.minute:02d} {'AM' if t.hour < 12 else 'PM'}"


# --------------------------------------------------------------------------
# Payments
# --------------------------------------------------------------------------

VE_FIRST = ["María", "José", "Luis", "Carmen", "Ana", "Carlos", "Yusmary", "Génesis", "Andrés",
            "Daniela", "Jesús", "Rosa", "Pedro", "Yorman", "Keila", "Héctor", "Oriana"]
VE_LAST = ["González", "Rodríguez", "Pérez", "Hernández", "García", "Martínez", "López", "Díaz",
           "Mendoza", "Rojas", "Castillo", "Silva", "Ramírez", "Torres"]
CO_FIRST = ["Valentina", "Santiago", "Camila", "Juan David", "Laura", "Andrés", "Mariana",
            "Sebastián", "Natalia", "Julián", "Paula", "Felipe"]
CO_LAST = ["Gómez", "Restrepo", "Ospina", "Muñoz", "Cárdenas", "Zapata", "Vargas", "Londoño",
           "Castaño", "Quintero"]
US_FIRST = ["John", "Emily", "David", "Sarah", "Kevin", "Ashley", "Michael", "Jessica", "Daniel",
            "Maria", "Carlos", "Gabriela"]
US_LAST = ["Smith", "Johnson", "Brown", "Miller", "Davis", "Garcia", "Wilson", "Moore",
           "Taylor", "Rivera"]
RAFFLE_PAYEES = ["Rifas El Triunfo", "Inversiones La Suerte C.A.", "Rifa Moto 2026",
                 "Gran Rifa Navideña", "Rifas Doble Chance"]

VE_BANKS = {
    "Banesco": {"code": "0134", "color": "#00843D", "logo": "B", "shape": "square"},
    "Banco de Venezuela": {"code": "0102", "color": "#D71920", "logo": "BDV", "shape": "circle"},
    "Mercantil": {"code": "0105", "color": "#0046AD", "logo": "M", "shape": "square"},
    "BBVA Provincial": {"code": "0108", "color": "#072146", "logo": "BBVA", "shape": "square"},
    "Bancamiga": {"code": "0172", "color": "#0B5394", "logo": "b", "shape": "circle"},
}
VE_BANK_SHORT = {"Banesco": "Banesco", "Banco de Venezuela": "Venezuela", "Mercantil": "Mercantil",
                 "BBVA Provincial": "Provincial", "Bancamiga": "Bancamiga"}
US_BANKS = {
    "Zelle": {"color": "#6D1ED4", "logo": "Z", "shape": "circle", "prefix": "ZL"},
    "Bank of America": {"color": "#012169", "logo": "BofA", "shape": "square", "prefix": "BAC"},
    "Chase": {"color": "#117ACA", "logo": "C", "shape": "octagon", "prefix": "JPM"},
    "Wells Fargo": {"color": "#C8102E", "logo": "WF", "shape": "square", "prefix": "WFCT"},
}
# local UTC offsets used for the shown times and for metadata timestamps
TZ_VE = timezone(timedelta(hours=-4))
TZ_CO = timezone(timedelta(hours=-5))


def tz_us(day: date) -> timezone:
    # US Eastern: DST ends on Sunday 2026-11-01
    return timezone(timedelta(hours=-4 if day < date(2026, 11, 1) else -5))


@dataclass
class Payment:
    pid: str
    layout: str
    bank: str
    currency: str
    cents: int
    reference: str
    when: datetime  # aware, local time of the payer
    rng: random.Random
    amount_text: str = ""
    extra: dict = field(default_factory=dict)

    @property
    def day(self) -> date:
        return self.when.date()


USED_REFS: set[str] = set()


def unique_ref(make) -> str:
    while True:
        ref = make()
        if ref not in USED_REFS:
            USED_REFS.add(ref)
            return ref


def payment_time(rng: random.Random, tz: timezone) -> datetime:
    day = FIRST_DAY + timedelta(days=rng.randint(0, (LAST_DAY - FIRST_DAY).days))
    return datetime(day.year, day.month, day.day, rng.randint(7, 22), rng.randint(0, 59),
                    rng.randint(0, 59), tzinfo=tz)


def fmt_ves(cents: int) -> str:
    whole, frac = money_parts(cents)
    return f"Bs. {group(whole, '.')},{frac}"


def fmt_cop(cents: int, with_cents: bool) -> str:
    whole, frac = money_parts(cents)
    return f"$ {group(whole, '.')}" + (f",{frac}" if with_cents else "")


def fmt_usd(cents: int) -> str:
    whole, frac = money_parts(cents)
    return f"${group(whole, ',')}.{frac}"


def fmt_usdt(cents: int, style: str) -> str:
    whole, frac = money_parts(cents)
    if style == "plain" and frac == "00":
        return f"{whole} USDT"
    return f"-{whole}.{frac} USDT"


def new_payment(layout: str, n: int, bank: str) -> Payment:
    pid = f"{layout}-{n:02d}"
    rng = random.Random(f"{SEED}/{pid}")
    if layout == "pago_movil":
        cents = rng.randint(300, 40000) * 100 + (0 if rng.random() < 0.3 else rng.randint(1, 99))
        ref = unique_ref(lambda: digits(rng, rng.choice([8, 10, 11, 12])))
        p = Payment(pid, layout, bank, "VES", cents, ref, payment_time(rng, TZ_VE), rng)
        p.amount_text = fmt_ves(cents)
    elif layout in ("bancolombia", "nequi"):
        cents = rng.randrange(10_000, 600_001, rng.choice([1000, 500])) * 100
        if layout == "bancolombia":
            ref = unique_ref(lambda: digits(rng, 10, first_nonzero=True))
        else:
            ref = unique_ref(lambda: "M" + digits(rng, 7, first_nonzero=True))
        p = Payment(pid, layout, bank, "COP", cents, ref, payment_time(rng, TZ_CO), rng)
        p.extra["cop_cents"] = rng.random() < 0.5
        p.amount_text = fmt_cop(cents, p.extra["cop_cents"])
    elif layout == "zelle":
        cents = rng.randint(5, 300) * 100 + (0 if rng.random() < 0.7 else rng.randint(1, 99))
        alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
        prefix = US_BANKS[bank]["prefix"]
        ref = unique_ref(lambda: prefix + "".join(rng.choice(alphabet) for _ in range(8)))
        when = payment_time(rng, TZ_VE)
        when = when.replace(tzinfo=tz_us(when.date()))
        p = Payment(pid, layout, bank, "USD", cents, ref, when, rng)
        p.amount_text = fmt_usd(cents)
    elif layout == "binance":
        cents = rng.randint(5, 300) * 100 + (0 if rng.random() < 0.7 else rng.randint(1, 99))
        ref = unique_ref(lambda: digits(rng, rng.choice([16, 17, 18]), first_nonzero=True))
        p = Payment(pid, layout, bank, "USDT", cents, ref, payment_time(rng, TZ_VE), rng)
        p.extra["usdt_style"] = rng.choice(["plain", "signed"])
        p.amount_text = fmt_usdt(cents, p.extra["usdt_style"])
    else:
        raise ValueError(layout)
    return p


def edited_cents(p: Payment, fits) -> int:
    """The forged amount of an `edited` variant: larger, same format, fits where the old one was."""
    rng = random.Random(f"{SEED}/{p.pid}/edited")
    factors = rng.sample([2, 3, 5, 10], 4) + [1.5, 1.2]
    for factor in factors:
        cents = int(p.cents * factor)
        if p.currency == "COP":
            cents = cents // 100_000 * 100_000
        if cents != p.cents and fits(cents):
            return cents
    raise ValueError(f"no forged amount fits for {p.pid}")


def format_amount(p: Payment, cents: int) -> str:
    if p.currency == "VES":
        return fmt_ves(cents)
    if p.currency == "COP":
        return fmt_cop(cents, p.extra["cop_cents"])
    if p.currency == "USD":
        return fmt_usd(cents)
    return fmt_usdt(cents, p.extra["usdt_style"])


# --------------------------------------------------------------------------
# Screenshot rendering
# --------------------------------------------------------------------------

LIGHT = {"bg": "#FFFFFF", "card": "#FFFFFF", "text": "#1C1C1E", "muted": "#6B6F76",
         "sep": "#E3E5E8", "outline": "#E3E5E8"}
LIGHT_GRAY = {"bg": "#F2F3F5", "card": "#FFFFFF", "text": "#1C1C1E", "muted": "#666A70",
              "sep": "#E6E7EA", "outline": None}
DARK_BINANCE = {"bg": "#181A20", "card": "#1E2329", "text": "#EAECEF", "muted": "#9AA2AE",
                "sep": "#2B3139", "outline": None}


@dataclass
class Spec:
    height: int
    theme: dict
    brand: str
    on_brand: str
    header_solid: bool
    header_title: str
    bank_name: str
    logo_text: str
    logo_shape: str
    brand_align: str  # left | center
    status_text: str
    status_color: str
    amount_label: str
    amount_text: str
    amount_size: int
    amount_color: str
    rows: list[tuple[str, str]]
    row_style: str  # inline | stacked
    label_size: int
    value_size: int
    value_bold: bool
    buttons: list[str]
    note: str
    clock: str
    header_h: int = 80
    required: tuple = ()  # labels of rows that must stay (they carry the truth fields)


def render_fitting(spec: Spec) -> tuple[Image.Image, dict]:
    """Render, dropping optional rows (from the end) until the footer fits."""
    while True:
        try:
            return render(spec)
        except Overflow:
            optional = [i for i, row in enumerate(spec.rows) if row[0] not in spec.required]
            if not optional:
                raise
            del spec.rows[optional[-1]]


class Overflow(Exception):
    pass


class Canvas:
    def __init__(self, width: int, height: int, bg: str):
        self.img = Image.new("RGB", (width, height), hex_rgb(bg))
        self.d = ImageDraw.Draw(self.img)

    def text(self, xy, s, size, color, bold=False, anchor="la"):
        f = font(size, bold)
        self.d.text(xy, s, font=f, fill=hex_rgb(color), anchor=anchor)
        return self.d.textbbox(xy, s, font=f, anchor=anchor)

    def width(self, s, size, bold=False) -> int:
        return int(round(self.d.textlength(s, font=font(size, bold))))

    def rect(self, box, color, radius=0, outline=None, width=1):
        fill = hex_rgb(color) if color else None
        line = hex_rgb(outline) if outline else None
        if radius:
            self.d.rounded_rectangle(box, radius=radius, fill=fill, outline=line, width=width)
        else:
            self.d.rectangle(box, fill=fill, outline=line, width=width)


def draw_logo(c: Canvas, x: int, y: int, size: int, spec: Spec) -> None:
    brand = hex_rgb(spec.brand)
    if spec.logo_shape == "circle":
        c.d.ellipse((x, y, x + size, y + size), fill=brand)
    elif spec.logo_shape == "diamond":
        h = size // 2
        c.d.polygon([(x + h, y), (x + size, y + h), (x + h, y + size), (x, y + h)], fill=brand)
    elif spec.logo_shape == "octagon":
        k = size * 0.29
        pts = [(x + k, y), (x + size - k, y), (x + size, y + k), (x + size, y + size - k),
               (x + size - k, y + size), (x + k, y + size), (x, y + size - k), (x, y + k)]
        c.d.polygon(pts, fill=brand)
    else:
        c.d.rounded_rectangle((x, y, x + size, y + size), radius=size // 5, fill=brand)
    tsize = {1: 34, 2: 26, 3: 20, 4: 16}.get(len(spec.logo_text), 16)
    c.text((x + size // 2, y + size // 2), spec.logo_text, tsize, spec.on_brand, bold=True, anchor="mm")


def draw_status_bar(c: Canvas, spec: Spec, bg: str, fg: str) -> None:
    c.rect((0, 0, WIDTH, 40), bg)
    c.text((26, 20), spec.clock, 22, fg, bold=True, anchor="lm")
    x = WIDTH - 118
    for i in range(4):  # signal bars
        h = 6 + i * 4
        c.rect((x + i * 8, 28 - h, x + i * 8 + 5, 28), fg)
    bx = WIDTH - 66
    c.rect((bx, 12, bx + 36, 28), None, radius=4, outline=fg, width=2)
    c.rect((bx + 4, 16, bx + 26, 24), fg)
    c.rect((bx + 38, 17, bx + 41, 23), fg)


def draw_check(c: Canvas, cx: int, cy: int, r: int, color: str) -> None:
    c.d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=hex_rgb(color))
    pts = [(cx - r * 0.45, cy + r * 0.02), (cx - r * 0.1, cy + r * 0.38), (cx + r * 0.48, cy - r * 0.3)]
    c.d.line(pts, fill=(255, 255, 255), width=max(4, r // 6), joint="curve")


def render(spec: Spec) -> tuple[Image.Image, dict]:
    t = spec.theme
    c = Canvas(WIDTH, spec.height, t["bg"])
    margin = 36
    # status bar + header
    if spec.header_solid:
        draw_status_bar(c, spec, spec.brand, spec.on_brand)
        c.rect((0, 40, WIDTH, 40 + spec.header_h), spec.brand)
        c.text((30, 40 + spec.header_h // 2), "←", 32, spec.on_brand, anchor="lm")
        c.text((WIDTH // 2, 40 + spec.header_h // 2), spec.header_title, 28, spec.on_brand,
               bold=True, anchor="mm")
    else:
        draw_status_bar(c, spec, t["bg"], t["text"])
        c.text((30, 40 + spec.header_h // 2), "←", 32, t["text"], anchor="lm")
        c.text((WIDTH // 2, 40 + spec.header_h // 2), spec.header_title, 28, t["text"],
               bold=True, anchor="mm")
        c.rect((0, 40 + spec.header_h - 2, WIDTH, 40 + spec.header_h), t["sep"])
    y = 40 + spec.header_h + 26

    # brand block
    logo = 60
    name_w = c.width(spec.bank_name, 30, bold=True)
    if spec.brand_align == "center":
        x0 = (WIDTH - (logo + 16 + name_w)) // 2
    else:
        x0 = margin
    draw_logo(c, x0, y, logo, spec)
    c.text((x0 + logo + 16, y + logo // 2), spec.bank_name, 30, t["text"], bold=True, anchor="lm")
    y += logo + 28

    # card with status + amount + rows
    card_top = y
    card = t["card"]
    # measure rows first to size the card
    inner_l, inner_r = margin + 22, WIDTH - margin - 22
    row_layout = []
    for label, value in spec.rows:
        lw = c.width(label, spec.label_size)
        vw = c.width(value, spec.value_size, spec.value_bold)
        inline = spec.row_style == "inline" and lw + 18 + vw <= inner_r - inner_l
        row_layout.append((label, value, inline))
    while c.width(spec.amount_text, spec.amount_size, bold=True) > inner_r - inner_l:
        spec.amount_size -= 2  # apps shrink a long amount to fit
    status_h = 150
    amount_h = 40 + spec.amount_size + 30
    rows_h = sum(58 if inline else 82 for _, _, inline in row_layout)
    card_bottom = card_top + status_h + amount_h + rows_h + 16
    c.rect((margin, card_top, WIDTH - margin, card_bottom), card, radius=22, outline=t["outline"], width=2)

    draw_check(c, WIDTH // 2, card_top + 50, 30, spec.status_color)
    c.text((WIDTH // 2, card_top + 100), spec.status_text, 30, t["text"], bold=True, anchor="mt")
    y = card_top + status_h
    c.text((WIDTH // 2, y), spec.amount_label, 24, t["muted"], anchor="mt")
    amount_xy = (WIDTH // 2, y + 36)
    amount_box = c.text(amount_xy, spec.amount_text, spec.amount_size, spec.amount_color,
                        bold=True, anchor="mt")
    y += amount_h
    c.rect((inner_l, y - 10, inner_r, y - 8), t["sep"])
    for label, value, inline in row_layout:
        if inline:
            c.text((inner_l, y + 29), label, spec.label_size, t["muted"], anchor="lm")
            c.text((inner_r, y + 29), value, spec.value_size, t["text"], bold=spec.value_bold, anchor="rm")
            y += 58
        else:
            c.text((inner_l, y + 8), label, spec.label_size - 2, t["muted"], anchor="la")
            c.text((inner_l, y + 40), value, spec.value_size, t["text"], bold=spec.value_bold, anchor="la")
            y += 82
    assert y <= card_bottom, spec.rows

    # footer: buttons and note
    y = card_bottom + 30
    bh = 64
    if len(spec.buttons) == 2:
        half = (WIDTH - 2 * margin - 16) // 2
        r, g, b_ = hex_rgb(spec.brand)
        light_brand = 0.299 * r + 0.587 * g + 0.114 * b_ > 150 and t is not DARK_BINANCE
        outline = t["muted"] if t is DARK_BINANCE else spec.brand
        label_color = t["text"] if (t is DARK_BINANCE or light_brand) else spec.brand
        c.rect((margin, y, margin + half, y + bh), None, radius=32, outline=outline, width=3)
        c.text((margin + half // 2, y + bh // 2), spec.buttons[0], 26, label_color, bold=True, anchor="mm")
        x2 = margin + half + 16
        c.rect((x2, y, WIDTH - margin, y + bh), spec.brand, radius=32)
        c.text(((x2 + WIDTH - margin) // 2, y + bh // 2), spec.buttons[1], 26, spec.on_brand,
               bold=True, anchor="mm")
    else:
        c.rect((margin, y, WIDTH - margin, y + bh), spec.brand, radius=32)
        c.text((WIDTH // 2, y + bh // 2), spec.buttons[0], 26, spec.on_brand, bold=True, anchor="mm")
    y += bh + 26
    words, line, lines = spec.note.split(), "", []
    for w in words:
        trial = (line + " " + w).strip()
        if c.width(trial, 20) > WIDTH - 2 * margin:
            lines.append(line)
            line = w
        else:
            line = trial
    lines.append(line)
    for ln in lines:
        c.text((WIDTH // 2, y), ln, 20, t["muted"], anchor="mt")
        y += 28
    if y > spec.height - 24:
        raise Overflow(y)
    # home indicator
    c.rect((WIDTH // 2 - 70, spec.height - 18, WIDTH // 2 + 70, spec.height - 12), t["muted"], radius=3)

    # a palette PNG (64 colours, no dithering), as screenshot optimizers write; keeps the corpus small
    img = c.img.quantize(64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    regions = {
        "amount": {
            "box": amount_box,
            "xy": amount_xy,
            "size": spec.amount_size,
            "color": spec.amount_color,
            "inner": (margin + 22, WIDTH - margin - 22),
        }
    }
    return img, regions


def base_spec(p: Payment, **kw) -> Spec:
    rng = p.rng
    clock_t = p.when + timedelta(minutes=rng.randint(0, 4))
    defaults = dict(
        height=rng.choice([1080, 1110, 1140, 1170]),
        header_h=rng.choice([72, 80, 88]),
        brand_align=rng.choice(["left", "center"]),
        amount_size=rng.choice([52, 56, 60]),
        label_size=rng.choice([22, 24]),
        value_size=rng.choice([24, 26]),
        value_bold=rng.random() < 0.6,
        row_style="stacked" if rng.random() < 0.3 else "inline",
        clock=f"{clock_t.hour % 12 or 12}:{clock_t.minute:02d}" if rng.random() < 0.5
        else f"{clock_t.hour:02d}:{clock_t.minute:02d}",
    )
    defaults.update(kw)
    return Spec(**defaults)


def fit_rows(spec: Spec, rows: list[tuple[str, str]], keep: int, rng: random.Random) -> list[tuple[str, str]]:
    """Keep the first `keep` rows (the truth-bearing ones) and a random subset of the rest."""
    spec.required = tuple(label for label, _ in rows[:keep])
    head, tail = rows[:keep], rows[keep:]
    extra = rng.randint(max(0, len(tail) - 2), len(tail))
    tail = rng.sample(tail, extra)
    merged = head + tail
    order = rng.sample(range(len(merged)), len(merged)) if rng.random() < 0.5 else list(range(len(merged)))
    return [merged[i] for i in order]


def spec_pago_movil(p: Payment) -> Spec:
    rng = p.rng
    bank = VE_BANKS[p.bank]
    dest_name = rng.choice(list(VE_BANKS))
    dest = VE_BANKS[dest_name]
    is_transfer = rng.random() < 0.25
    t = p.when
    hora = rng.choice([f"{t.hour:02d}:{t.minute:02d}", hour12(t), f"{t.hour:02d}:{t.minute:02d}:{t.second:02d}"])
    phone = rng.choice(["0414", "0424", "0412", "0416", "0426"]) + "-" + digits(rng, 7)
    ced = f"V-{group(str(rng.randint(6_000_000, 32_000_000)), '.')}"
    payee = rng.choice(RAFFLE_PAYEES + [f"{rng.choice(VE_FIRST)} {rng.choice(VE_LAST)}"])
    rows = [
        ("Fecha:", t.strftime("%d/%m/%Y")),
        ("Referencia:", p.reference),
        ("Hora:", hora),
        ("Banco destino:", f"{dest['code']} - {VE_BANK_SHORT[dest_name]}"),
    ]
    if is_transfer:
        rows.append(("Cuenta destino:", f"{dest['code']}-****-{digits(rng, 4)}"))
    else:
        rows.append(("Teléfono:", phone))
    rows += [("Cédula:", ced), ("Beneficiario:", payee), ("Concepto:", rng.choice(["Rifa", "Pago rifa", "Boletos"]))]
    theme = rng.choice([LIGHT, LIGHT_GRAY])
    spec = base_spec(
        p,
        theme=theme,
        brand=bank["color"],
        on_brand="#FFFFFF",
        header_solid=rng.random() < 0.7,
        header_title="Transferencia" if is_transfer else "Pago Móvil",
        bank_name=p.bank,
        logo_text=bank["logo"],
        logo_shape=bank["shape"],
        status_text="Operación exitosa",
        status_color="#1FA055",
        amount_label=rng.choice(["Monto", "Monto pagado", "Monto transferido"]),
        amount_text=p.amount_text,
        amount_color=theme["text"] if rng.random() < 0.5 else bank["color"],
        rows=[],
        buttons=rng.choice([["Compartir", "Finalizar"], ["Compartir", "Inicio"], ["Aceptar"]]),
        note=rng.choice([
            "Conserve este comprobante como soporte de su operación.",
            "Operación sujeta a verificación. Atención al cliente 0500-0000000.",
            "Este comprobante no requiere firma ni sello.",
        ]),
    )
    spec.rows = fit_rows(spec, rows, 4, rng)
    return spec


def co_date(p: Payment) -> str:
    t = p.when
    if p.extra.setdefault("co_long", p.rng.random() < 0.5):
        return f"{t.day} de {MESES[t.month - 1]} de {t.year}"
    return f"{t.day} {MESES_CORTOS[t.month - 1]} {t.year}"


def spec_bancolombia(p: Payment) -> Spec:
    rng = p.rng
    payee = rng.choice(RAFFLE_PAYEES + [f"{rng.choice(CO_FIRST)} {rng.choice(CO_LAST)}"])
    rows = [
        ("Comprobante No.", p.reference),
        ("Fecha", co_date(p)),
        ("Hora", hour12(p.when)),
        ("Producto origen", f"Ahorros *{digits(rng, 4)}"),
        ("Producto destino", f"Ahorros *{digits(rng, 4)}"),
        ("Para", payee),
        ("Descripción", rng.choice(["Rifa", "Pago boletas", "Boletas rifa"])),
    ]
    spec = base_spec(
        p,
        theme=rng.choice([LIGHT, LIGHT_GRAY]),
        brand="#FDDA24",
        on_brand="#2C2A29",
        header_solid=rng.random() < 0.6,
        header_title="Transferir plata",
        bank_name="Bancolombia",
        logo_text="B",
        logo_shape="square",
        status_text=rng.choice(["¡Transferencia exitosa!", "Transferencia exitosa"]),
        status_color="#00A859",
        amount_label=rng.choice(["Valor enviado", "Valor de la transferencia"]),
        amount_text=p.amount_text,
        amount_color="#2C2A29",
        rows=[],
        buttons=rng.choice([["Compartir", "Finalizar"], ["Ir al inicio"]]),
        note="Bancolombia S.A. Establecimiento bancario. Vigilado Superintendencia Financiera de Colombia.",
    )
    spec.rows = fit_rows(spec, rows, 3, rng)
    return spec


def spec_nequi(p: Payment) -> Spec:
    rng = p.rng
    rows = [
        ("Referencia", p.reference),
        ("Fecha", co_date(p)),
        ("Hora", hour12(p.when)),
        ("Para", f"{rng.choice(CO_FIRST)} {rng.choice(CO_LAST)}"),
        ("Número Nequi", f"3{digits(rng, 2)} {digits(rng, 3)} {digits(rng, 4)}"),
        ("¿De dónde salió?", "Disponible"),
    ]
    spec = base_spec(
        p,
        theme=LIGHT,
        brand="#200020",
        on_brand="#FFFFFF",
        header_solid=rng.random() < 0.5,
        header_title="Envío de plata",
        bank_name="Nequi",
        logo_text="N",
        logo_shape="circle",
        status_text="¡Envío exitoso!",
        status_color="#DA0081",
        amount_label="¿Cuánto?",
        amount_text=p.amount_text,
        amount_color="#200020",
        rows=[],
        buttons=rng.choice([["Compartir", "Listo"], ["Listo"]]),
        note="Nequi es un producto de Bancolombia S.A. Vigilado por la Superintendencia Financiera.",
    )
    spec.rows = fit_rows(spec, rows, 3, rng)
    return spec


def spec_zelle(p: Payment) -> Spec:
    rng = p.rng
    bank = US_BANKS[p.bank]
    t = p.when
    first = rng.choice(US_FIRST)
    contact = rng.choice([
        f"{first.lower()}{rng.choice(US_LAST).lower()[:4]}@gmail.com",
        f"({digits(rng, 3, True)}) 555-{digits(rng, 4)}",
    ])
    rows = [
        ("Sent to", f"{first} {rng.choice(US_LAST)}"),
        ("Date", f"{MONTHS_EN[t.month - 1]} {t.day}, {t.year}"),
        ("Confirmation:", p.reference),
        ("Time", hour12(t, es=False, zero_pad=False) + " ET"),
        ("Email/mobile", contact),
        ("Memo", rng.choice(["Rifa", "Raffle tickets", "Tickets"])),
        ("Status", "Completed"),
    ]
    spec = base_spec(
        p,
        theme=rng.choice([LIGHT, LIGHT_GRAY]),
        brand=bank["color"],
        on_brand="#FFFFFF",
        header_solid=rng.random() < 0.6,
        header_title="Zelle®" if p.bank != "Zelle" else "Send",
        bank_name=p.bank,
        logo_text=bank["logo"],
        logo_shape=bank["shape"],
        status_text=rng.choice(["Payment sent", "Money sent"]),
        status_color="#2E7D32",
        amount_label="Amount",
        amount_text=p.amount_text,
        amount_color="#1C1C1E",
        rows=[],
        buttons=rng.choice([["Share", "Done"], ["Done"]]),
        note={
            "Zelle": "Money sent with Zelle® is typically available in minutes when the recipient is enrolled.",
            "Bank of America": "Bank of America, N.A. Member FDIC. Zelle® transfers typically arrive in minutes.",
            "Chase": "JPMorgan Chase Bank, N.A. Member FDIC. Zelle® payments usually arrive in minutes.",
            "Wells Fargo": "Wells Fargo Bank, N.A. Member FDIC. Zelle® payments usually arrive in minutes.",
        }[p.bank],
    )
    spec.rows = fit_rows(spec, rows, 3, rng)
    return spec


def spec_binance(p: Payment) -> Spec:
    rng = p.rng
    theme = DARK_BINANCE if p.extra.get("dark") else LIGHT
    rows = [
        ("Order ID", p.reference),
        ("Fecha", p.when.strftime("%Y-%m-%d %H:%M:%S")),
        ("Pagado a", rng.choice(["RifasElTriunfo", "GranRifa_VE", "Rifa Doble Chance", "SuerteRifas"])),
        ("Método de pago", "Cuenta de Fondos"),
        ("Binance Pay ID", digits(rng, 9, True)),
        ("Moneda", "USDT"),
    ]
    spec = base_spec(
        p,
        theme=theme,
        brand="#F0B90B",
        on_brand="#181A20",
        header_solid=False,
        header_title="Binance Pay",
        bank_name="Binance",
        logo_text="◆",
        logo_shape="diamond",
        status_text=rng.choice(["Pago exitoso", "Pago completado"]),
        status_color="#0ECB81",
        amount_label="Importe",
        amount_text=p.amount_text,
        amount_color=theme["text"],
        rows=[],
        buttons=rng.choice([["Compartir", "Listo"], ["Listo"]]),
        note="Binance nunca le pedirá su contraseña. Verifique siempre los datos del pago.",
    )
    spec.rows = fit_rows(spec, rows, 2, rng)
    return spec


SPEC_BUILDERS = {
    "pago_movil": spec_pago_movil,
    "bancolombia": spec_bancolombia,
    "nequi": spec_nequi,
    "zelle": spec_zelle,
    "binance": spec_binance,
}

# --------------------------------------------------------------------------
# Variants
# --------------------------------------------------------------------------


def png_bytes(img: Image.Image, **kw) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG", **kw)
    return buf.getvalue()


def jpeg_bytes(img: Image.Image, quality: int, exif: Image.Exif | None = None, **kw) -> bytes:
    buf = io.BytesIO()
    if exif is not None:
        kw["exif"] = exif.tobytes()
    img.convert("RGB").save(buf, "JPEG", quality=quality, **kw)
    return buf.getvalue()


def exif_dt(t: datetime) -> str:
    return t.strftime("%Y:%m:%d %H:%M:%S")


def exif_offset(t: datetime) -> str:
    off = t.utcoffset() or timedelta(0)
    minutes = int(off.total_seconds() // 60)
    sign = "-" if minutes < 0 else "+"
    minutes = abs(minutes)
    return f"{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def iso_utc(t: datetime) -> str:
    return t.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def no_metadata() -> dict:
    return {"software": None, "createdAt": None, "device": None}


EDITORS = ["Adobe Photoshop 25.0 (Windows)", "Canva", "GIMP 2.10.36",
           "Adobe Photoshop Express 8.6", "PicsArt", "Adobe Photoshop 24.7 (Macintosh)"]
PHONES = [("samsung", "SM-A546E"), ("Xiaomi", "Redmi Note 12"), ("Apple", "iPhone 13"),
          ("motorola", "moto g54 5G")]


def make_variants(p: Payment, img: Image.Image, regions: dict, plan: set[str], counters: dict) -> list[tuple[str, bytes, dict]]:
    """Returns (variant, bytes, extra manifest fields) for one original."""
    rng = random.Random(f"{SEED}/{p.pid}/variants")
    out: list[tuple[str, bytes, dict]] = []
    out.append(("original", png_bytes(img, optimize=True), {}))

    if "resaved" in plan:
        mode = rng.choice(["level", "level", "phys", "text", "text", "rgb", "rgba", "level"])
        if mode == "level":
            # not 9: optimize=True (the original) is level 9 and would give the same bytes
            data = png_bytes(img, compress_level=rng.choice([1, 3, 6]))
        elif mode == "rgb":
            data = png_bytes(img.convert("RGB"), optimize=True)
        elif mode == "rgba":
            data = png_bytes(img.convert("RGBA"), compress_level=9)
        elif mode == "phys":
            data = png_bytes(img, compress_level=6, dpi=(144, 144))
        else:
            info = PngImagePlugin.PngInfo()
            info.add_text("Comment", "Screenshot")
            data = png_bytes(img, compress_level=9, pnginfo=info)
        assert data != out[0][1], f"{p.pid}: resaved has the original's bytes"
        out.append(("resaved", data, {}))

    if "jpeg" in plan:
        out.append(("jpeg", jpeg_bytes(img, rng.choice([60, 65, 70, 75, 80]), optimize=True,
                                       progressive=rng.random() < 0.75), {}))

    if "cropped" in plan:
        w, h = img.size
        edges = rng.choice([("top",), ("top", "bottom"), ("left", "right"), ("bottom",),
                            ("top", "left", "right")])
        frac = lambda: rng.uniform(0.03, 0.08)
        box = [0, 0, w, h]
        if "top" in edges:
            box[1] = round(h * frac())
        if "bottom" in edges:
            box[3] = h - round(h * frac())
        if "left" in edges:
            box[0] = round(w * frac())
        if "right" in edges:
            box[2] = w - round(w * frac())
        out.append(("cropped", png_bytes(img.crop(tuple(box)), optimize=True), {}))

    if "scaled" in plan:
        factor = rng.uniform(0.75, 0.90)
        size = (round(img.width * factor), round(img.height * factor))
        small = img.convert("RGB").resize(size, Image.Resampling.LANCZOS)
        if rng.random() < 0.5:
            small = small.quantize(64, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
            out.append(("scaled", png_bytes(small, optimize=True), {}))
        else:
            out.append(("scaled", jpeg_bytes(small, rng.choice([75, 80]), optimize=True), {}))

    if "webp" in plan:
        buf = io.BytesIO()
        img.convert("RGB").save(buf, "WEBP", quality=rng.choice([70, 75, 80]), method=4)
        out.append(("webp", buf.getvalue(), {}))

    if "edited" in plan:
        reg = regions["amount"]
        amount_font = font(reg["size"], True)
        room = reg["inner"][1] - reg["inner"][0]
        new_cents = edited_cents(p, lambda cents: amount_font.getlength(format_amount(p, cents)) <= room)
        new_text = format_amount(p, new_cents)
        forged = img.convert("RGB")
        d = ImageDraw.Draw(forged)
        x0, y0, x1, y1 = reg["box"]
        # the background is the commonest colour of a ring around the amount
        ring = [forged.getpixel((x, y)) for x in range(x0 - 10, x1 + 10, 2) for y in (y0 - 8, y1 + 4)]
        ring += [forged.getpixel((x, y)) for x in (x0 - 8, x1 + 8) for y in range(y0, y1, 2)]
        bg = max(sorted(set(ring)), key=ring.count)
        d.rectangle((x0 - 6, y0 - 6, x1 + 6, y1 + 6), fill=bg)
        d.text(reg["xy"], new_text, font=amount_font, fill=hex_rgb(reg["color"]), anchor="mt")
        software = EDITORS[counters["edited"] % len(EDITORS)]
        counters["edited"] += 1
        edited_at = p.when + timedelta(hours=rng.randint(1, 40), minutes=rng.randint(0, 59))
        exif = Image.Exif()
        exif[0x0131] = software
        exif[0x0132] = exif_dt(edited_at)
        exif.get_ifd(0x8769)[0x9010] = exif_offset(edited_at)  # OffsetTime
        data = jpeg_bytes(forged, rng.choice([75, 80]), exif=exif, optimize=True)
        out.append(("edited", data, {
            "amount": plain_amount(new_cents),
            "originalAmount": plain_amount(p.cents),
            "metadata": {"software": software, "createdAt": iso_utc(edited_at), "device": None},
        }))

    if "phone_photo" in plan:
        make, model = PHONES[counters["phone"] % len(PHONES)]
        counters["phone"] += 1
        shot_at = p.when + timedelta(minutes=rng.randint(1, 90), seconds=rng.randint(0, 59))
        exif = Image.Exif()
        exif[0x010F] = make
        exif[0x0110] = model
        exif[0x0132] = exif_dt(shot_at)
        sub = exif.get_ifd(0x8769)
        sub[0x9003] = exif_dt(shot_at)  # DateTimeOriginal
        sub[0x9004] = exif_dt(shot_at)  # DateTimeDigitized
        sub[0x9010] = exif_offset(shot_at)  # OffsetTime
        sub[0x9011] = exif_offset(shot_at)  # OffsetTimeOriginal
        data = jpeg_bytes(img, 80, exif=exif, optimize=True)
        out.append(("phone_photo", data, {
            "metadata": {"software": None, "createdAt": iso_utc(shot_at), "device": f"{make} {model}"},
        }))
    return out


EXT = {b"\x89PNG": "png", b"\xff\xd8\xff": "jpg", b"RIFF": "webp", b"%PDF": "pdf"}


def ext_of(data: bytes) -> str:
    for magic, ext in EXT.items():
        if data.startswith(magic):
            return ext
    raise ValueError("unknown format")


# --------------------------------------------------------------------------
# Hand-written PDFs
# --------------------------------------------------------------------------


def pdf_string(s: str) -> bytes:
    """A PDF literal string in WinAnsi / PDFDocEncoding (they agree on Latin-1 letters, ©, ®)."""
    raw = s.encode("cp1252")
    out = bytearray(b"(")
    for b in raw:
        if b in (0x28, 0x29, 0x5C):
            out += b"\\" + bytes([b])
        elif 32 <= b < 127:
            out.append(b)
        else:
            out += f"\\{b:03o}".encode("ascii")
    out += b")"
    return bytes(out)


def pdf_rgb(color: str) -> str:
    r, g, b = hex_rgb(color)
    return f"{r / 255:.3f} {g / 255:.3f} {b / 255:.3f}"


def pdf_date(t: datetime) -> str:
    off = exif_offset(t)
    return t.strftime("D:%Y%m%d%H%M%S") + f"{off[:3]}'{off[4:]}'"


def build_pdf(lines: list[tuple], header: tuple[str, str, str], info: dict[str, str]) -> bytes:
    """lines: (x, y, size, bold, text) from the top; header: (title, color, text color)."""
    pw, ph = 420, 595
    title, color, on = header
    ops = [f"q {pdf_rgb(color)} rg 0 {ph - 90} {pw} 90 re f Q".encode()]
    ops.append(b"BT /F2 22 Tf " + pdf_rgb(on).encode() + b" rg 36 " + str(ph - 56).encode()
               + b" Td " + pdf_string(title) + b" Tj ET")
    ops.append(f"q 0.85 0.85 0.85 RG 1 w 36 {ph - 300} m {pw - 36} {ph - 300} l S Q".encode())
    for i, (x, y, size, bold, text) in enumerate(lines):
        face = b"/F2" if bold else b"/F1"
        start = b"BT " + face + f" {size} Tf 0.1 0.1 0.1 rg {x} {ph - y} Td ".encode()
        if i % 3 == 1 and " " in text:
            # some lines as TJ arrays with a kerning adjustment between words
            parts = text.split(" ")
            arr = b" ".join(pdf_string(w + (" " if j < len(parts) - 1 else "")) + (b" -20" if j < len(parts) - 1 else b"")
                            for j, w in enumerate(parts))
            ops.append(start + b"[" + arr + b"] TJ ET")
        else:
            ops.append(start + pdf_string(text) + b" Tj ET")
    content = b"\n".join(ops) + b"\n"

    objs: list[bytes] = []
    objs.append(b"<< /Type /Catalog /Pages 2 0 R >>")
    objs.append(b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
    objs.append(f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw} {ph}] "
                f"/Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>".encode())
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    objs.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
    objs.append(f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"endstream")
    info_parts = b" ".join(b"/" + k.encode() + b" " + pdf_string(v) for k, v in info.items())
    objs.append(b"<< " + info_parts + b" >>")

    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref_at = len(out)
    out += f"xref\n0 {len(objs) + 1}\n".encode()
    out += b"0000000000 65535 f \n"
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R /Info {len(objs)} 0 R >>\n"
            f"startxref\n{xref_at}\n%%EOF\n").encode()
    return bytes(out)


def pdf_for(p: Payment, producer: str, creator: str, created: datetime) -> bytes:
    rng = p.rng
    t = p.when
    if p.layout == "pago_movil":
        bank = VE_BANKS[p.bank]
        dest_name = rng.choice(list(VE_BANKS))
        title = f"{p.bank}"
        body = [
            (36, 130, 15, True, "Comprobante de Pago Móvil"),
            (36, 160, 11, False, "Operación exitosa"),
            (36, 200, 11, False, "Monto:"),
            (36, 232, 24, True, p.amount_text),
            (36, 340, 11, False, f"Fecha: {t.strftime('%d/%m/%Y')}"),
            (36, 364, 11, False, f"Hora: {t.hour:02d}:{t.minute:02d}"),
            (36, 388, 11, False, f"Referencia: {p.reference}"),
            (36, 412, 11, False, f"Banco destino: {VE_BANKS[dest_name]['code']} - {dest_name}"),
            (36, 436, 11, False, "Teléfono: " + rng.choice(["0414", "0424", "0412"]) + "-" + digits(rng, 7)),
            (36, 460, 11, False, f"Cédula: V-{group(str(rng.randint(6_000_000, 32_000_000)), '.')}"),
            (36, 484, 11, False, "Concepto: Pago rifa"),
            (36, 560, 8, False, "Conserve este comprobante como soporte de su operación."),
        ]
        header = (title, bank["color"], "#FFFFFF")
    else:
        body = [
            (36, 130, 15, True, "Comprobante de transferencia"),
            (36, 160, 11, False, "Transferencia exitosa"),
            (36, 200, 11, False, "Valor enviado:"),
            (36, 232, 24, True, p.amount_text),
            (36, 340, 11, False, f"Comprobante No. {p.reference}"),
            (36, 364, 11, False, f"Fecha: {co_date(p)}"),
            (36, 388, 11, False, f"Hora: {hour12(t)}"),
            (36, 412, 11, False, f"Producto origen: Ahorros *{digits(rng, 4)}"),
            (36, 436, 11, False, f"Para: {rng.choice(RAFFLE_PAYEES)}"),
            (36, 460, 11, False, "Descripción: Pago boletas"),
            (36, 560, 8, False, "Bancolombia S.A. Vigilado Superintendencia Financiera de Colombia."),
        ]
        header = ("Bancolombia", "#FDDA24", "#2C2A29")
    info = {
        "Title": "Comprobante de pago",
        "Creator": creator,
        "Producer": producer,
        "CreationDate": pdf_date(created),
        "ModDate": pdf_date(created),
    }
    return build_pdf(body, header, info)


# --------------------------------------------------------------------------
# The corpus plan
# --------------------------------------------------------------------------

LAYOUT_COUNTS = [("pago_movil", 12), ("bancolombia", 5), ("nequi", 4), ("zelle", 8), ("binance", 7)]
PM_BANKS = ["Banesco", "Banco de Venezuela", "Mercantil", "BBVA Provincial", "Bancamiga"]
ZELLE_BANKS = ["Zelle", "Bank of America", "Chase", "Wells Fargo"]

EDITED = {"pago_movil-02", "pago_movil-07", "bancolombia-03", "nequi-02", "zelle-04", "binance-05"}
PHONE_PHOTO = {"pago_movil-04", "bancolombia-01", "zelle-06", "binance-02"}
WEBP = {"pago_movil-10", "nequi-04", "zelle-01", "binance-07"}
DARK = {"binance-03", "binance-06"}

# (payment id, bank, producer, creator, created = payment time + delta, editor?)
PDFS = [
    ("pago_movil-13", "Banesco", "iText 7.1.16 ©2000-2021 iText Group NV", "Banesco Online", timedelta(seconds=2)),
    ("pago_movil-14", "Banco de Venezuela", "Adobe Photoshop 25.0", "Adobe Photoshop 25.0 (Windows)",
     timedelta(hours=3, minutes=17)),
    ("pago_movil-15", "Mercantil", "JasperReports Library version 6.20.0", "JasperReports Library version 6.20.0",
     timedelta(seconds=1)),
    ("bancolombia-06", "Bancolombia", "iText® 5.5.13.3 ©2000-2022 iText Group NV (AGPL-version)",
     "Sucursal Virtual Personas", timedelta(seconds=3)),
    ("bancolombia-07", "Bancolombia", "JasperReports Library version 6.20.0", "JasperReports Library version 6.20.0",
     timedelta(seconds=2)),
    ("bancolombia-08", "Bancolombia", "Canva", "Canva", timedelta(days=23, hours=5, minutes=41)),
]


def plan_for(index: int, pid: str) -> set[str]:
    plan = {"original"}
    if index % 6 != 5:
        plan.add("resaved")
    if index % 4 != 2:
        plan.add("jpeg")
    if index % 2 == 0:
        plan.add("cropped")
    if index % 3 == 1:
        plan.add("scaled")
    if pid in WEBP:
        plan.add("webp")
    if pid in EDITED:
        plan.add("edited")
    if pid in PHONE_PHOTO:
        plan.add("phone_photo")
    return plan


def truth(p: Payment, amount: str | None = None) -> dict:
    return {
        "amount": amount or plain_amount(p.cents),
        "currency": p.currency,
        "reference": p.reference,
        "date": p.day.isoformat(),
        "bank": p.bank,
    }


def clean_outputs() -> None:
    for f in HERE.iterdir():
        if f.is_file() and (f.suffix.lower() in OUTPUT_EXTENSIONS or f.name == "manifest.json"):
            f.unlink()


def main() -> None:
    USED_REFS.clear()
    clean_outputs()
    proofs = []
    counters = {"edited": 0, "phone": 0}
    index = 0
    for layout, count in LAYOUT_COUNTS:
        for n in range(1, count + 1):
            if layout == "pago_movil":
                bank = PM_BANKS[(n - 1) % len(PM_BANKS)]
            elif layout == "zelle":
                bank = ZELLE_BANKS[(n - 1) % len(ZELLE_BANKS)]
            else:
                bank = {"bancolombia": "Bancolombia", "nequi": "Nequi", "binance": "Binance"}[layout]
            p = new_payment(layout, n, bank)
            p.extra["dark"] = p.pid in DARK
            img, regions = render_fitting(SPEC_BUILDERS[layout](p))
            for variant, data, extra in make_variants(p, img, regions, plan_for(index, p.pid), counters):
                name = f"{p.pid}-{variant}.{ext_of(data)}"
                (HERE / name).write_bytes(data)
                entry = {
                    "file": name,
                    "payment": p.pid,
                    "layout": layout,
                    "variant": variant,
                    "truth": truth(p, extra.get("amount")),
                }
                if "originalAmount" in extra:
                    entry["originalAmount"] = extra["originalAmount"]
                entry["metadata"] = extra.get("metadata", no_metadata())
                proofs.append(entry)
            index += 1

    for pid, bank, producer, creator, delta in PDFS:
        layout, n = pid.rsplit("-", 1)
        p = new_payment(layout, int(n), bank)
        created = p.when + delta
        data = pdf_for(p, producer, creator, created)
        name = f"{pid}-pdf.pdf"
        (HERE / name).write_bytes(data)
        proofs.append({
            "file": name,
            "payment": pid,
            "layout": layout,
            "variant": "pdf",
            "truth": truth(p),
            "metadata": {"software": producer, "createdAt": iso_utc(created), "device": None},
        })

    digests: dict[str, str] = {}
    for e in proofs:
        digest = hashlib.sha256((HERE / e["file"]).read_bytes()).hexdigest()
        assert digest not in digests, f"{e['file']} has the same bytes as {digests[digest]}"
        digests[digest] = e["file"]

    manifest = {"generator": "generate.py", "proofs": proofs}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    total = sum((HERE / e["file"]).stat().st_size for e in proofs)
    print(f"wrote {len(proofs)} proofs ({total / 1024:.0f} KiB) and manifest.json")


if __name__ == "__main__":
    main()
