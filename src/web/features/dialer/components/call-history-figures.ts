import { callQualityLabels, type CallMediaFigures, type FigureRange } from '../../../../common/call-quality';

const inMs = ({ average, worst }: FigureRange) => `${Math.round(average)} ms (worst ${Math.round(worst)} ms)`;
const inPercent = ({ average, worst }: FigureRange) => `${(average * 100).toFixed(1)} % (worst ${(worst * 100).toFixed(1)} %)`;

/**
 * One line of a call's audio figures for Call History (docs/calls.md#call-details): the quality,
 * then each figure measured as its average and its worst; figures not measured are left out.
 */
export function describeMediaFigures(figures: CallMediaFigures): string {
  const quality = figures.worstQuality === figures.quality ? callQualityLabels[figures.quality] : `${callQualityLabels[figures.quality]} (at worst ${callQualityLabels[figures.worstQuality]})`;
  const parts = [
    `Quality: ${quality}`,
    figures.codec,
    figures.roundTripMs && `round trip ${inMs(figures.roundTripMs)}`,
    figures.jitterMs && `jitter ${inMs(figures.jitterMs)}`,
    figures.lossShare && `loss ${inPercent(figures.lossShare)}`,
    figures.concealedShare && `concealed ${inPercent(figures.concealedShare)}`,
    figures.voiceDelayMs.worst > 0 && `voice changer ${inMs(figures.voiceDelayMs)}`,
  ];
  return parts.filter(Boolean).join(' · ');
}
