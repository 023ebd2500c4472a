"""Fixed-point arithmetic and shifts, as pure functions of 36-bit words.

Each returns its result words plus the PC-word flag bits it sets (AR OV, CRY0, CRY1),
following the PDP-6 rules of reference sections 1.4 and 1.5.
"""

from __future__ import annotations

from ..jit import jit, jit_inline
from .state import F_CRY0, F_CRY1, F_OV

M36 = (1 << 36) - 1
M35 = (1 << 35) - 1
SIGN = 1 << 35


@jit_inline
def signed(w: int) -> int:
    return w - (1 << 36) if w & SIGN else w


@jit_inline
def add_flags(a: int, b: int) -> tuple[int, int]:
    """a + b with CRY0 (carry out of bit 0), CRY1 (carry into bit 0), OV = CRY0 xor CRY1."""
    s = a + b
    cry0 = (s >> 36) & 1
    cry1 = ((a & M35) + (b & M35)) >> 35
    return s & M36, cry0 * F_CRY0 | cry1 * F_CRY1 | (cry0 ^ cry1) * F_OV


@jit_inline
def sub_flags(a: int, b: int) -> tuple[int, int]:
    """a - b the PDP-6 way: complement a, add b, complement the sum.

    The carries are therefore those of (~a) + b, not of a + (~b) + 1 as on the KA10:
    SUB 5-3 sets no carry flags (reference 1.4, checked against aap).
    """
    s, f = add_flags(a ^ M36, b)
    return s ^ M36, f


@jit
def negate(w: int) -> tuple[int, int]:
    """MOVN: two's complement; only AR OV, and only for -2**35 (never carries)."""
    return (-w) & M36, F_OV if w == SIGN else 0


@jit
def magnitude(w: int) -> tuple[int, int]:
    """MOVM: absolute value; -2**35 stays and sets AR OV."""
    if w & SIGN:
        return negate(w)
    return w, 0


@jit
def _umul35(a: int, b: int) -> tuple[int, int]:
    """Unsigned product of a, b < 2**36 as (high, low 35 bits), within int64."""
    ah = a >> 18
    al = a & 0o777777
    bh = b >> 18
    bl = b & 0o777777
    s = (ah * bl + al * bh) * (1 << 18) + al * bl  # < 2**56
    return ah * bh * 2 + (s >> 35), s & M35


@jit
def _booth_mul(m: int, q: int) -> tuple[int, int]:
    """The multiply step loop of the hardware, for a multiplicand of -2**35.

    The PDP-6 multiplies by Booth's method with C(AC) as multiplicand in a 36-bit
    adder: 36 add steps over the multiplier bits with 35 right shifts of AR,MQ.  With
    m = -2**35 the subtraction overflows and the result is not the product; this
    reproduces aap's schematic model (MUL -2**35 x 1 -> 1,0; x -1 -> -1,400000000000).
    """
    ar = 0
    mq = q
    prev = 0
    for i in range(36):
        b = mq & 1
        if b == 1 and prev == 0:
            ar = (ar - m) & M36
        elif b == 0 and prev == 1:
            ar = (ar + m) & M36
        prev = b
        if i < 35:
            low = ar & 1
            ar = (ar >> 1) | (ar & SIGN)
            mq = (mq >> 1) | (low << 35)
    return ar, ((mq >> 1) & M35) | (ar & SIGN)


@jit
def mul(a: int, b: int) -> tuple[int, int, int]:
    """MUL: a * b as the 70-bit pair (high, low); the low word repeats the sign.

    AR OV only when both operands are negative and the high word comes out negative,
    which happens for (-2**35) * (-2**35) (reference 1.4).
    """
    if a == SIGN:
        hi, lo = _booth_mul(a, b)
    else:
        neg = (a ^ b) & SIGN
        ma = (-a) & M36 if a & SIGN else a
        mb = (-b) & M36 if b & SIGN else b
        hi, lo = _umul35(ma, mb)
        if neg and (hi or lo):
            lo = (-lo) & M35
            hi = (-hi - (1 if lo else 0)) & M36
        else:
            hi = hi & M36
        lo = lo | (hi & SIGN)
    f = F_OV if (a & SIGN) and (b & SIGN) and (hi & SIGN) else 0
    return hi, lo, f


@jit
def imul(a: int, b: int) -> tuple[int, int]:
    """IMUL: the low word of the MUL format; AR OV if the product exceeds 36 bits."""
    hi, lo, f = mul(a, b)
    # The product fits when the high word is all copies of the low word's sign.
    fits = hi == (M36 if lo & SIGN else 0)
    if a == SIGN:
        fits = fits and f == 0
    return lo, 0 if fits else F_OV


@jit
def idiv(a: int, b: int) -> tuple[int, int, int]:
    """IDIV: (quotient, remainder, ok).  The remainder has the dividend's sign.

    Divisor 0 is no-divide (ok = 0).  The dividend's magnitude is formed in 35 bits, so
    -2**35 divided by anything nonzero gives 0 remainder 0 (reference 1.5, aap).
    """
    if b == 0:
        return 0, 0, 0
    ma = (((-a) & M36) if a & SIGN else a) & M35
    mb = ((-b) & M36) if b & SIGN else b
    q = ma // mb
    r = ma % mb
    if (a ^ b) & SIGN:
        q = -q
    if a & SIGN:
        r = -r
    return q & M36, r & M36, 1


@jit
def div(hi: int, lo: int, b: int) -> tuple[int, int, int]:
    """DIV: the 70-bit dividend hi,lo (lo's sign ignored) by b: (quotient, remainder, ok).

    No-divide when the divisor is 0 or the dividend's high part is not smaller than
    the divisor in magnitude (the quotient would not fit).
    """
    neg = hi & SIGN
    h = hi
    lo35 = lo & M35
    if neg:
        lo35 = (-lo35) & M35
        h = (~hi + (0 if lo35 else 1)) & M36
    mb = ((-b) & M36) if b & SIGN else b
    if mb == 0 or h >= mb:
        return 0, 0, 0
    r = h
    q = 0
    for i in range(34, -1, -1):
        r = r * 2 + ((lo35 >> i) & 1)
        q <<= 1
        if r >= mb:
            r -= mb
            q |= 1
    if neg != (b & SIGN):
        q = -q
    if neg:
        r = -r
    return q & M36, r & M36, 1


@jit
def shift_count(e: int) -> int:
    """The 9-bit signed shift count: E bit 18 is the sign, bits 28-35 the magnitude part."""
    n = e & 0o377
    if e & 0o400000:
        n -= 256
    return n


@jit
def ash(w: int, n: int) -> tuple[int, int]:
    """Arithmetic shift; left shifts set AR OV if a bit shifted out differs from the sign."""
    v = signed(w)
    if n > 0:
        if n >= 35:
            # Every bit of the word passes bit 1; past 35 places the zeros shifted in
            # at bit 35 reach bit 1 too, so only 0 (or -1 by exactly 35) stays in range.
            f = 0 if v == 0 or (v == -1 and n == 35) else F_OV
            return w & SIGN, f
        top = v >> (35 - n)
        f = 0 if top == 0 or top == -1 else F_OV
        return ((v << n) & M35) | (w & SIGN), f
    if n < 0:
        return (v >> min(-n, 63)) & M36, 0
    return w, 0


@jit
def rot(w: int, n: int) -> int:
    n %= 36
    return ((w << n) | (w >> (36 - n))) & M36


@jit
def lsh(w: int, n: int) -> int:
    if n >= 36 or n <= -36:
        return 0
    if n >= 0:
        return (w << n) & M36
    return w >> -n


@jit
def ashc(hi: int, lo: int, n: int) -> tuple[int, int, int]:
    """ASHC on the 70-bit AC,AC+1; AC+1 bit 0 receives the sign; count 0 changes nothing."""
    if n == 0:
        return hi, lo, 0
    sign = hi & SIGN
    h = signed(hi)  # sign and 35 bits
    l35 = lo & M35
    f = 0
    if n > 0:
        if n >= 70:
            # Past 70 places the zeros shifted in reach AC bit 1 (OV for a negative).
            ok = (h == 0 and l35 == 0) if sign == 0 else (n == 70 and h == -1 and l35 == M35)
            nh, nl = 0, 0
        elif n >= 35:
            k = n - 35
            ok = h == (-1 if sign else 0)
            if k:
                lost = l35 >> (35 - k)
                ok = ok and lost == ((1 << k) - 1 if sign else 0)
            nh = (l35 << k) & M35
            nl = 0
        else:
            top = h >> (35 - n)
            ok = top == 0 or top == -1
            nh = ((h << n) | (l35 >> (35 - n))) & M35
            nl = (l35 << n) & M35
        if not ok:
            f = F_OV
        return sign | nh, sign | nl, f
    m = -n
    if m >= 70:
        nh = h >> 35
        nl = nh & M35
    elif m >= 35:
        nl = (h >> (m - 35)) & M35
        nh = h >> 35
    else:
        nl = ((l35 >> m) | (h << (35 - m))) & M35
        nh = h >> m
    return nh & M36, sign | nl, 0


@jit
def rotc(hi: int, lo: int, n: int) -> tuple[int, int]:
    """Rotate the 72-bit AC,AC+1."""
    n %= 72
    if n >= 36:
        hi, lo = lo, hi
        n -= 36
    if n == 0:
        return hi, lo
    return ((hi << n) | (lo >> (36 - n))) & M36, ((lo << n) | (hi >> (36 - n))) & M36


@jit
def lshc(hi: int, lo: int, n: int) -> tuple[int, int]:
    """Logical shift of the 72-bit AC,AC+1."""
    if n >= 72 or n <= -72:
        return 0, 0
    if n >= 36:
        return (lo << (n - 36)) & M36, 0
    if n > 0:
        return ((hi << n) | (lo >> (36 - n))) & M36, (lo << n) & M36
    if n <= -36:
        return 0, hi >> (-n - 36)
    if n < 0:
        m = -n
        return hi >> m, ((lo >> m) | (hi << (36 - m))) & M36
    return hi, lo
