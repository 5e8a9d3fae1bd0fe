"""Exact money for every server: integer minor units inside, decimal major units outside.

Conventions (all money servers follow them):

- One currency per world: the user's home currency (`World.currency`, ISO 4217). A server
  stores it once in its state (`remember_currency`) and never exchanges between currencies:
  a currency argument other than the world's is refused (`check_currency`).
- Inside the state every amount is an `int` count of the currency's minor unit (cents for
  EUR/USD, yen for JPY: `CURRENCY_DIGITS`). Sums, differences and comparisons are plain
  integer arithmetic; nothing is ever a float.
- At the API surface an amount is a JSON number in the major unit, as Plaid and PayPal show
  it (12.5 EUR, 1500 JPY). An input amount with more decimals than the currency allows is
  refused with a message naming the argument, the value and the precision (`parse`); nothing
  is rounded silently. Output goes back through `to_major`, which gives the exact value.
- Every object with money fields carries a sibling `currency` field (ISO 4217); amounts stay
  plain numbers. Output schemas declare it as a `str` field named `currency`.
- Where a division or a percentage is needed (fees, interest, discounts, splits) the result is
  rounded to the minor unit with ROUND_HALF_EVEN (banker's rounding) everywhere (`percent`,
  `divide`); `split` hands out the remainder one minor unit at a time so parts sum exactly.
- Seeded prices and balances are USD-like magnitudes scaled by a fixed per-currency factor
  (`SCALE`) and rounded to the minor unit (`seed`), so a JPY world's coffee costs ~600 yen.
  Fixed fees, caps and limits written in servers as USD-like constants are scaled the same
  way when used (`limit`), so a tool's schema never states a dollar amount.
- A unit price finer than the minor unit (an electricity tariff per kWh) is a rate, not an
  amount: it is kept as a Decimal string and only the amount it prices is rounded.
- Input schemas give money arguments as `number` with `minimum` 0.01 at most; upper bounds
  depend on the currency, so they are checked in code with a clear message, not in the schema.
"""

from __future__ import annotations

from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from typing import Any

from servers.core.errors import ToolError
from servers.core.world import CURRENCY_DIGITS

ROUNDING = ROUND_HALF_EVEN  # the one rounding rule for every division and percentage
# fixed factor from a seeded USD-like magnitude to a plausible amount in each currency
SCALE = {"USD": Decimal("1"), "EUR": Decimal("0.9"), "GBP": Decimal("0.8"),
         "CAD": Decimal("1.35"), "AUD": Decimal("1.5"), "SGD": Decimal("1.35"),
         "JPY": Decimal("150")}
_VAR = "currency"  # the state var holding the world's currency


def digits(currency: str) -> int:
    """Digits of the currency's minor unit (2 for EUR, 0 for JPY)."""
    try:
        return CURRENCY_DIGITS[currency]
    except KeyError:
        raise ToolError(f"unknown currency {currency!r}; known: "
                        f"{', '.join(sorted(CURRENCY_DIGITS))}") from None


def _decimal(value: Any, arg: str) -> Decimal:
    # repr of a float is its shortest round-tripping decimal: 10.005 -> Decimal("10.005"),
    # never the binary expansion 10.0049999...
    if isinstance(value, bool) or not isinstance(value, (int, float, str, Decimal)):
        raise ToolError(f"{arg} must be a number, got {value!r}")
    try:
        d = Decimal(repr(value) if isinstance(value, float) else str(value))
    except InvalidOperation:
        raise ToolError(f"{arg} must be a number, got {value!r}") from None
    if not d.is_finite():
        raise ToolError(f"{arg} must be a finite number, got {value!r}")
    return d


def parse(value: Any, currency: str, arg: str = "amount") -> int:
    """An input amount in major units -> exact minor units; refuses excess decimals."""
    d = _decimal(value, arg)
    n = digits(currency)
    minor = d.scaleb(n)
    if minor != minor.to_integral_value():
        example = d.quantize(Decimal(1).scaleb(-n), rounding=ROUNDING)
        raise ToolError(f"{arg} {value} has more decimals than {currency} allows ({n}); "
                        f"use e.g. {example}")
    return int(minor)


def to_major(minor: int, currency: str) -> int | float:
    """Minor units -> a JSON number in major units with the exact value (an int for JPY)."""
    n = digits(currency)
    if n == 0:
        return int(minor)
    # float of the exact decimal is the nearest double, whose repr is the decimal itself
    return float(Decimal(int(minor)).scaleb(-n))


def fmt(minor: int, currency: str) -> str:
    """Minor units as text with exactly the currency's digits, for messages ('12.50 EUR')."""
    n = digits(currency)
    return f"{Decimal(int(minor)).scaleb(-n):.{n}f} {currency}"


def seed(usd: float | int | str | Decimal, currency: str) -> int:
    """A seeded USD-like magnitude -> minor units of a plausible amount in `currency`."""
    d = Decimal(repr(usd) if isinstance(usd, float) else str(usd))
    return int((d * SCALE[currency]).scaleb(digits(currency)).to_integral_value(ROUNDING))


def divide(numerator: int, denominator: int) -> int:
    """numerator / denominator rounded to an integer with the one rounding rule."""
    if denominator == 0:
        raise ZeroDivisionError("divide by zero")
    return int((Decimal(numerator) / Decimal(denominator)).to_integral_value(ROUNDING))


def percent(minor: int, rate: float | int | str | Decimal) -> int:
    """`rate` percent of an amount in minor units, rounded to the minor unit (half even)."""
    r = Decimal(repr(rate) if isinstance(rate, float) else str(rate))
    return int((Decimal(int(minor)) * r / 100).to_integral_value(ROUNDING))


def times(minor: int, factor: float | int | str | Decimal) -> int:
    """An amount times a factor (a drift, a ratio), rounded to the minor unit (half even)."""
    f = Decimal(repr(factor) if isinstance(factor, float) else str(factor))
    return int((Decimal(int(minor)) * f).to_integral_value(ROUNDING))


def split(minor: int, parts: int) -> list[int]:
    """An amount split into `parts` shares differing by at most one unit, summing exactly."""
    if parts < 1:
        raise ValueError("parts must be >= 1")
    base, extra = divmod(int(minor), parts)
    return [base + 1 if i < extra else base for i in range(parts)]


def remember_currency(s: Any, currency: str) -> None:
    """Store the world's currency in a fresh state (generation time)."""
    digits(currency)
    s.set_var(_VAR, currency)


def currency_of(s: Any) -> str:
    """The world's currency as stored in the state."""
    return s.var(_VAR)


def check_currency(s: Any, given: str | None, arg: str = "currency") -> str:
    """The world's currency; refuses any other one (there is no exchange)."""
    cur = currency_of(s)
    if given is not None and given.upper() != cur:
        raise ToolError(f"{arg} {given!r} is not this account's currency; every amount here is "
                        f"in {cur} and there is no currency exchange")
    return cur


def amount_in(s: Any, value: Any, arg: str = "amount") -> int:
    """An input amount in the session's currency -> minor units (refused if too precise)."""
    return parse(value, currency_of(s), arg)


def amount_out(s: Any, minor: int) -> int | float:
    """Minor units -> JSON number in the session's currency."""
    return to_major(minor, currency_of(s))


def limit(s: Any, usd: float | int) -> int:
    """A USD-like limit (a maximum per payment, say) in the session's currency, minor units."""
    return seed(usd, currency_of(s))
