export interface StubAnswer {
  status: number;
  body?: unknown;
  /** Besides its JSON content type (an X-Request-Id, say). */
  headers?: Record<string, string>;
}

/** An answer, a function of the request, or a list answered in turn (the last one repeats). */
export type StubResponder = StubAnswer | ((request: { url: string; body: unknown }) => StubAnswer | Promise<StubAnswer>) | StubAnswer[];

interface StubbedRequest {
  method: string;
  url: string;
  body: unknown;
}

/**
 * A fetch stub answering by method and path: keys are 'PATCH /api/v1/account', or a bare path for
 * every method. Anything unlisted is a 404 in the API's error shape. `requests` records each call
 * with its JSON body parsed.
 */
export function stubApi(answers: Record<string, StubResponder>) {
  const requests: StubbedRequest[] = [];
  const turns = new Map<string, number>();

  const fetchStub = async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = (init?.method ?? 'GET').toUpperCase();
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    requests.push({ method, url, body });

    const key = `${method} ${url}` in answers ? `${method} ${url}` : url;
    const responder = answers[key];
    let answer: StubAnswer;
    if (responder === undefined) {
      answer = { status: 404, body: { error: { code: 'not_found', message: 'Not found' } } };
    } else if (Array.isArray(responder)) {
      const turn = turns.get(key) ?? 0;
      turns.set(key, turn + 1);
      answer = responder[Math.min(turn, responder.length - 1)] as StubAnswer;
    } else if (typeof responder === 'function') {
      answer = await responder({ url, body });
    } else {
      answer = responder;
    }
    return new Response(answer.body === undefined ? null : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json', ...answer.headers },
    });
  };

  /** The requests sent with this method to this path. */
  const sent = (method: string, url: string) => requests.filter((request) => request.method === method && request.url === url);

  return { fetchStub, requests, sent };
}

/** The API's error body. */
export function apiError(status: number, code: string, message: string, field?: string): StubAnswer {
  return { status, body: { error: { code, message, ...(field ? { field } : {}) } } };
}
