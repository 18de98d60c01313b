"""The one duration formatter: every place that shows a time reads the same."""

from inspector.core.units import format_ms, format_ratio, format_seconds


def test_text_picks_the_unit_that_reads_at_a_glance() -> None:
    assert format_ms(1234.5) == "1.234 s"
    assert format_ms(1.5) == "1.500 ms"
    assert format_ms(0.0123) == "12.3 µs"
    assert format_ms(None) == "—"
    assert format_seconds(0.5) == format_ms(500.0) == "500.000 ms"


def test_compact_keeps_three_significant_figures_for_plot_labels() -> None:
    assert format_ms(123.4, compact=True) == "123 ms"
    assert format_ms(1.234, compact=True) == "1.23 ms"
    assert format_ms(0.0123, compact=True) == "12.3 µs"
    assert format_ms(2500.0, compact=True) == "2.50 s"
    assert format_ms(0.0005, compact=True) == "500 ns"


def test_a_column_headed_ms_gets_a_bare_number() -> None:
    assert format_ms(1.23456, unit=False) == "1.235"
    assert format_ms(123.456, unit=False) == "123.5"
    assert format_ms(None, unit=False) == "—"


def test_a_ratio_past_a_million_is_written_with_an_exponent() -> None:
    assert format_ratio(2.345) == "2.35" and format_ratio(999_999.0) == "999999.00"
    assert format_ratio(31473396998.64) == "3.15e+10" and format_ratio(1e300) == "1e+300"
    assert format_ratio(1e-7) == "1e-07" and format_ratio(0.0) == "0.00"
    assert format_ratio(84.3, 0) == "84"
