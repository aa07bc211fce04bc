import assert from 'node:assert/strict';
import { redactUrl, redactUrlsIn } from '../../../core/net/redact-url.js';

/** Every form a credential takes in a database, Redis or node URL, and what the one redaction leaves of it. */
const CASES: Array<{ form: string; url: string; shown: string }> = [
  { form: 'userinfo password', url: 'postgres://app:hunter2@db.example:5432/bds', shown: 'postgres://app:***@db.example:5432/bds' },
  { form: 'percent-encoded userinfo password', url: 'postgres://app:p%40ss%2Fw@db/bds', shown: 'postgres://app:***@db/bds' },
  { form: 'user without a password (nothing to hide)', url: 'postgres://postgres@db/bds', shown: 'postgres://postgres@db/bds' },
  { form: '?password=', url: 'postgres://postgres@host/db?password=t4SuperSecret', shown: 'postgres://postgres@host/db?password=***' },
  { form: '?sslpassword=', url: 'postgres://h/db?sslmode=require&sslpassword=keypw', shown: 'postgres://h/db?sslmode=require&sslpassword=***' },
  { form: 'parameter name in another case', url: 'postgres://h/db?PassWord=x1&SSLPASSWORD=x2', shown: 'postgres://h/db?PassWord=***&SSLPASSWORD=***' },
  { form: 'percent-encoded parameter name', url: 'postgres://h/db?pass%77ord=x1&%73slpassword=x2', shown: 'postgres://h/db?password=***&sslpassword=***' },
  { form: 'repeated parameter', url: 'postgres://h/db?password=a&application_name=x&password=b', shown: 'postgres://h/db?password=***&application_name=x&password=***' },
  { form: 'both userinfo and query', url: 'postgresql://u:one@h/db?password=two', shown: 'postgresql://u:***@h/db?password=***' },
  { form: 'socket directory form', url: 'postgres:///db?host=/var/run/postgresql&password=x', shown: 'postgres:///db?host=/var/run/postgresql&password=***' },
  { form: 'ssl file paths are shown (never their contents), passfile too', url: 'postgres://h/db?sslkey=/etc/k.pem&sslcert=/etc/c.pem&sslrootcert=/etc/ca.pem&passfile=/home/u/.pgpass', shown: 'postgres://h/db?sslkey=/etc/k.pem&sslcert=/etc/c.pem&sslrootcert=/etc/ca.pem&passfile=/home/u/.pgpass' },
  { form: 'a PEM block given inline', url: 'postgres://h/db?sslkey=-----BEGIN%20PRIVATE%20KEY-----abc', shown: 'postgres://h/db?sslkey=***' },
  { form: 'fragment', url: 'postgres://h/db#secret', shown: 'postgres://h/db#***' },
  { form: 'Redis password only', url: 'redis://:redispw@127.0.0.1:6379', shown: 'redis://:***@127.0.0.1:6379' },
  { form: 'Redis TLS with user and password', url: 'rediss://default:redispw@cache:6380/2', shown: 'rediss://default:***@cache:6380/2' },
  { form: 'Redis ?password=', url: 'redis://cache:6379/0?password=redispw', shown: 'redis://cache:6379/0?password=***' },
  { form: 'node URL with basic auth', url: 'https://user:nodepw@rpc.example/', shown: 'https://user:***@rpc.example/' },
  { form: 'a URL with nothing secret is left exactly as given', url: 'http://127.0.0.1:26657', shown: 'http://127.0.0.1:26657' },
  { form: 'not a URL (a key=value DSN may hold a password): not echoed', url: 'host=db password=secret', shown: '(unparseable URL)' },
];

describe('redactUrl: the one credential redaction', () => {
  for (const c of CASES) {
    it(c.form, () => {
      assert.equal(redactUrl(c.url), c.shown);
    });
  }

  it('redactUrlsIn redacts every URL inside a line of text and keeps the sentence around it', () => {
    const line = 'BDS reads PostgreSQL postgres://postgres@host/db?password=t4SuperSecret (schema public); limits via redis://:redispw@cache:6379.';
    assert.equal(redactUrlsIn(line), 'BDS reads PostgreSQL postgres://postgres@host/db?password=*** (schema public); limits via redis://:***@cache:6379.');
    assert.equal(redactUrlsIn('no url here: password=x'), 'no url here: password=x');
    assert.equal(redactUrlsIn('cut "postgres://u:t4Sup...'), 'cut "(a URL)...');
  });
});
