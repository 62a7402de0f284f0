/** A sample's labels, `__name__` apart. */
export type Labels = Record<string, string>;

/** One line of a scrape: a series' name, its labels and its value. */
export interface Sample {
  name: string;
  labels: Labels;
  value: number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const ESCAPES: Record<string, string> = { '\\': '\\', '"': '"', n: '\n' };

/** Go's ParseFloat, which the format's values follow: numbers, NaN and signed or unsigned Inf. */
function parseValue(text: string): number {
  const infinity = /^([+-]?)inf$/i.exec(text);
  if (infinity) return infinity[1] === '-' ? -Infinity : Infinity;
  if (/^nan$/i.test(text)) return Number.NaN;
  if (text === '' || !/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text)) throw new Error(`"${text}" is not a number`);
  return Number(text);
}

/** Reads `{name="value",...}` from the start of `text`; returns the labels and what follows. */
function parseLabels(text: string): { labels: Labels; rest: string } {
  const labels: Labels = {};
  let at = 1;
  for (;;) {
    while (text[at] === ' ') at += 1;
    if (text[at] === '}') return { labels, rest: text.slice(at + 1) };
    const name = LABEL_NAME.exec(text.slice(at))?.[0];
    if (!name) throw new Error(`a label name was expected at column ${at + 1}`);
    at += name.length;
    if (text.slice(at, at + 2) !== '="') throw new Error(`label ${name} has no ="value"`);
    at += 2;
    let value = '';
    while (text[at] !== '"') {
      if (at >= text.length) throw new Error(`label ${name}'s value is not closed`);
      if (text[at] === '\\') {
        const escaped = ESCAPES[text[at + 1] ?? ''];
        if (escaped === undefined) throw new Error(`label ${name}'s value has an unknown escape \\${text[at + 1] ?? ''}`);
        value += escaped;
        at += 2;
      } else {
        value += text[at];
        at += 1;
      }
    }
    if (name in labels) throw new Error(`label ${name} is repeated`);
    labels[name] = value;
    at += 1;
    while (text[at] === ' ') at += 1;
    if (text[at] === ',') at += 1;
    else if (text[at] !== '}') throw new Error(`a comma or } was expected after label ${name}`);
  }
}

/**
 * The samples of a scrape in Prometheus's text format (version 0.0.4, what prom-client serves).
 * Comments, HELP and TYPE lines are skipped (a histogram's series are known by their suffixes), as
 * is a sample's timestamp (the scrape's time stands for it, as Prometheus does by default). A line
 * that is not a sample fails with its number.
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    try {
      const name = NAME.exec(line)?.[0];
      if (!name) throw new Error('a metric name was expected');
      let rest = line.slice(name.length);
      let labels: Labels = {};
      if (rest.startsWith('{')) ({ labels, rest } = parseLabels(rest));
      const [value, timestamp, extra] = rest.trim().split(/\s+/);
      if (value === undefined || extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) throw new Error('a value and an optional timestamp were expected');
      samples.push({ name, labels, value: parseValue(value) });
    } catch (error) {
      throw new Error(`line ${index + 1} of the metrics is not a sample (${(error as Error).message}): ${line}`, { cause: error });
    }
  }
  return samples;
}
