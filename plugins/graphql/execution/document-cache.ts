import { parse, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';

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

  /** Throws GraphQL's syntax error for a bad document. */
  parse(query: string): DocumentNode {
    const cached = this.documents.get(query);
    if (cached) {
      this.documents.delete(query);
      this.documents.set(query, cached);
      return cached;
    }
    const document = parse(query, { maxTokens: this.maxTokens });
    this.documents.set(query, document);
    if (this.documents.size > this.maxEntries) this.documents.delete(this.documents.keys().next().value!);
    return document;
  }

  validate(document: DocumentNode): readonly GraphQLError[] {
    let errors = this.validated.get(document);
    if (!errors) {
      errors = validate(this.schema, document);
      this.validated.set(document, errors);
    }
    return errors;
  }
}
