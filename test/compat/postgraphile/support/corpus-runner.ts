import { canonicalAnswer, valueDifferences } from './answer-diff.js';
import { getUrl, postGraphql, type HttpAnswer } from './compat-servers.js';
import type { CorpusQuery } from './query-corpus.js';
import type { Difference } from './schema-diff.js';

/**
 * Sends every corpus query to both servers (in corpus order, each server following its own
 * earlier answers for `from` queries) and compares the answers.
 */
export interface CorpusOutcome {
  differences: Difference[];
  /** Per differing query: the query and both canonical answers in full. */
  details: string[];
  /** Queries outside `error/` that PostGraphile itself refuses: the corpus is wrong there. */
  corpusProblems: string[];
}

export async function runCorpus(referenceUrl: string, oursUrl: string, corpus: CorpusQuery[]): Promise<CorpusOutcome> {
  const answered = { reference: new Map<string, HttpAnswer>(), ours: new Map<string, HttpAnswer>() };
  const out: CorpusOutcome = { differences: [], details: [], corpusProblems: [] };
  for (const entry of corpus) {
    const a = await ask(referenceUrl, entry, answered.reference);
    const b = await ask(oursUrl, entry, answered.ours);
    const errors = (a.body as { errors?: unknown } | null)?.errors;
    if (!entry.name.startsWith('error/') && (a.status !== 200 || errors)) {
      out.corpusProblems.push(`${entry.name}: PostGraphile answered ${a.status} ${JSON.stringify(a.body).slice(0, 300)}`);
    }
    const [ca, cb] = [canonicalAnswer(a), canonicalAnswer(b)];
    if (ca === cb) continue;
    out.differences.push({ id: `query/${entry.name}`, detail: valueDifferences(JSON.parse(ca), JSON.parse(cb)).join('\n    '), answers: { reference: JSON.parse(ca), ours: JSON.parse(cb) } });
    out.details.push(`## query/${entry.name}\n${entry.get !== undefined ? `GET ${entry.get}` : entry.rawBody ?? entry.query}${entry.headers ? `\n(headers ${JSON.stringify(entry.headers)})` : ''}\n-- PostGraphile:\n${ca}\n-- chainhost:\n${cb}\n`);
  }
  return out;
}

async function ask(url: string, entry: CorpusQuery, answered: Map<string, HttpAnswer>): Promise<HttpAnswer> {
  let variables = entry.variables;
  if (entry.from) {
    const previous = answered.get(entry.from);
    if (!previous) throw new Error(`corpus: ${entry.name} needs ${entry.from} first`);
    try {
      variables = entry.variablesFrom!(previous.body);
    } catch {
      // That server's earlier answer has no cursor to follow: what it answered there says why.
      const answer: HttpAnswer = { status: 0, body: { corpus: `no variables from ${entry.from}` } };
      answered.set(entry.name, answer);
      return answer;
    }
  }
  const body = entry.rawBody ?? JSON.stringify(variables ? { query: entry.query, variables } : { query: entry.query });
  const answer = entry.get !== undefined ? await getUrl(new URL(url + entry.get).href) : await postGraphql(url, body, entry.headers);
  answered.set(entry.name, answer);
  return answer;
}
