"""A run's name as the legend and the bars say it: ``"cpu · float32"``, with why it stopped
early when it did (``run_label``). ``LatencyPlot`` hands it to the views it draws with
(``LatencyCanvas``, ``SamplesView``) and says it in the summary rows. Texts keep the context
``"LatencyCanvas"`` they always had, so the catalogue keeps their translations."""

from __future__ import annotations


from inspector.gui.common.marks import QT_TRANSLATE_NOOP
from inspector.gui.common.i18n import fill
from inspector.gui.common.plot_words import LIVE, Words
from inspector.gui.common.vocabulary_words import mode_text
from inspector.gui.features.latency.series import SeriesKey, series_label

#: Why a run stopped early (``LatencyPlot.abort_series``), as its label says it; another
#: reason is shown as it is.
STATUS_WORDS = {
    "cancelled": QT_TRANSLATE_NOOP("LatencyCanvas", "cancelled"),
    "failed": QT_TRANSLATE_NOOP("LatencyCanvas", "failed"),
}


def run_label(key: SeriesKey, status: str = "", words: Words = LIVE) -> str:
    """A run's name in the legend and under its bar: ``"cpu · float32"``, with why it
    stopped early when it did (``"cpu · float32 (cancelled)"``)."""
    label = series_label(key, str if words.english else mode_text)
    if not status:
        return label
    said = words.translate("LatencyCanvas", STATUS_WORDS[status]) if status in STATUS_WORDS else status
    return fill(words.translate("LatencyCanvas", "%1 (%2)"), label, said)
