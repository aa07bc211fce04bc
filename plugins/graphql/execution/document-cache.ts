import { GraphQLError, parse, validate, type DocumentNode, type GraphQLSchema } from 'graphql';
import { checkDocumentNesting } from './input-nesting.js';

/**
 * Parsed and validated documents by query text. Clients send the same few queries over and
 * over; parsing and validating one against this (large) schema costs more than running its
 * SQL, and neither depends on the variables. Bounded, least recently used out first; syntax
 * errors are not cached (they are cheap and unbounded in variety).
 */
export class DocumentCache {
  private readonly documents = new Map<string, DocumentNode>();
  private readonly validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();

  constructor(private readonly schema: GraphQLSchema, private readonly maxTokens: number, private readonly maxEntries = 500) {}

  /** Throws GraphQL's syntax error for a bad document, and QUERY_TOO_DEEP before parsing one nested too deep to parse safely. */
  parse(query: string): DocumentNode {
    const cached = this.documents.get(query);
    if (cached) {
      this.documents.delete(query);
      this.documents.set(query, cached);
      return cached;
    }
    checkDocumentNesting(query);
    const document = withinStack(() => parse(query, { maxTokens: this.maxTokens }));
    this.documents.set(query, document);
    if (this.documents.size > this.maxEntries) this.documents.delete(this.documents.keys().next().value!);
    return document;
  }

  validate(document: DocumentNode): readonly GraphQLError[] {
    let errors = this.validated.get(document);
    if (!errors) {
      errors = withinStack(() => validate(this.schema, document));
      this.validated.set(document, errors);
    }
    return errors;
  }
}

/**
 * graphql-js recurses over the document; the nesting check keeps real documents far from the
 * stack's end, and this turns an overflow that still happens into a request error with a
 * message (a bare RangeError reached clients as `{"errors":[{}]}`).
 */
export function withinStack<T>(run: () => T): T {
  try {
    return run();
  } catch (err) {
    if (err instanceof RangeError) {
      throw new GraphQLError('Query is nested too deeply to process; flatten fragments and filters, or split the query', { extensions: { code: 'QUERY_TOO_DEEP' } });
    }
    throw err;
  }
}
