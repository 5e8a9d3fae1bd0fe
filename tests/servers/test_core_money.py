"""servers.core.money: exact parsing, formatting, scaling and rounding of amounts."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from servers.core import money
from servers.core.errors import ToolError
from servers.core.state import State
from servers.core.world import CURRENCY_DIGITS, make_world

JPY_SEED = 10  # the first seed whose user lives in Tokyo (checked below)


def test_every_world_currency_has_digits_and_a_scale():
    assert set(money.SCALE) == set(CURRENCY_DIGITS)
    assert make_world(JPY_SEED).currency == "JPY"


def test_parse_takes_major_units_to_exact_minor_units():
    assert money.parse(12.5, "EUR") == 1250
    assert money.parse(12.50, "EUR") == 1250
    assert money.parse(0.1, "USD") == 10
    assert money.parse(1500, "JPY") == 1500
    assert money.parse(1500.0, "JPY") == 1500
    assert money.parse("19.99", "GBP") == 1999


def test_parse_refuses_more_decimals_than_the_currency_has():
    with pytest.raises(ToolError) as err:
        money.parse(10.005, "EUR")
    assert str(err.value) == "amount 10.005 has more decimals than EUR allows (2); use e.g. 10.00"
    with pytest.raises(ToolError, match=r"price 12.5 has more decimals than JPY allows \(0\)"):
        money.parse(12.5, "JPY", "price")


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), "ten", None, True, [1]])
def test_parse_refuses_what_is_not_a_finite_number(bad):
    with pytest.raises(ToolError, match="amount"):
        money.parse(bad, "USD")


def test_unknown_currency_is_refused():
    with pytest.raises(ToolError, match="unknown currency 'XYZ'"):
        money.parse(1, "XYZ")


@given(st.integers(min_value=-10**12, max_value=10**12), st.sampled_from(sorted(CURRENCY_DIGITS)))
def test_to_major_then_parse_round_trips_exactly(minor, currency):
    major = money.to_major(minor, currency)
    assert money.parse(major, currency) == minor
    # the JSON number is the exact decimal value, not a binary neighbour of it
    assert Decimal(repr(major)) == Decimal(minor).scaleb(-CURRENCY_DIGITS[currency])


def test_to_major_gives_an_int_for_jpy_and_the_exact_decimal_otherwise():
    assert money.to_major(1500, "JPY") == 1500 and isinstance(money.to_major(1500, "JPY"), int)
    assert repr(money.to_major(1001, "EUR")) == "10.01"
    assert repr(money.to_major(1250, "EUR")) == "12.5"
    assert money.fmt(1250, "EUR") == "12.50 EUR" and money.fmt(7, "JPY") == "7 JPY"


def test_seed_scales_by_a_fixed_factor_and_rounds_to_the_minor_unit():
    assert money.seed(10, "USD") == 1000
    assert money.seed(10, "EUR") == 900
    assert money.seed(4.99, "JPY") == 748  # 748.5 -> half to even
    assert money.seed(4.97, "JPY") == 746  # 745.5 -> half to even
    assert money.seed(12.34, "CAD") == 1666  # 16.659 -> 16.66
    assert money.seed(2.5, "GBP") == 200


def test_percent_and_divide_round_half_to_even():
    assert money.percent(1000, 2.5) == 25
    assert money.percent(50, 5) == 2  # 2.5 -> 2
    assert money.percent(70, 5) == 4  # 3.5 -> 4
    assert money.divide(5, 2) == 2 and money.divide(7, 2) == 4 and money.divide(-5, 2) == -2
    assert money.times(1000, 0.8125) == 812 and money.times(1000, 0.8135) == 814
    with pytest.raises(ZeroDivisionError):
        money.divide(1, 0)


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=1, max_value=50))
def test_split_parts_sum_exactly_and_differ_by_at_most_one(minor, parts):
    shares = money.split(minor, parts)
    assert sum(shares) == minor and len(shares) == parts
    assert max(shares) - min(shares) <= 1


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=10000))
def test_percent_is_within_half_a_unit_of_the_exact_value(minor, basis_points):
    rate = Decimal(basis_points) / 100
    exact = Decimal(minor) * rate / 100
    assert abs(money.percent(minor, rate) - exact) <= Decimal("0.5")


def test_session_currency_helpers_refuse_another_currency():
    s = State()
    money.remember_currency(s, "JPY")
    assert money.check_currency(s, None) == "JPY" and money.check_currency(s, "jpy") == "JPY"
    with pytest.raises(ToolError, match=r"'USD'.*JPY.*no currency exchange"):
        money.check_currency(s, "USD")
    assert money.amount_in(s, 1200) == 1200 and money.amount_out(s, 1200) == 1200
    with pytest.raises(ToolError, match="more decimals than JPY allows"):
        money.amount_in(s, 0.5)
    assert money.limit(s, 5000) == 750000
