// graphql-helix ships ESM as .mjs with .d.ts beside it (not .d.mts), which NodeNext resolution
// cannot pair; these are the declarations of the parts chainhost uses, as the package defines them.
declare module 'graphql-helix' {
  import type { DocumentNode, ExecutionResult, GraphQLSchema, ValidationRule } from 'graphql';

  export interface Request {
    body?: unknown;
    headers: Record<string, string | string[] | undefined>;
    method: string;
    query: unknown;
  }

  export interface ExecutionContext {
    request: Request;
    document: DocumentNode;
    operationName?: string;
    variables?: Record<string, unknown>;
  }

  export interface ProcessRequestOptions<TContext, TRootValue> {
    contextFactory?: (executionContext: ExecutionContext) => Promise<TContext> | TContext;
    rootValueFactory?: (executionContext: ExecutionContext) => Promise<TRootValue> | TRootValue;
    execute?: (...args: any[]) => any;
    parse?: (...args: any[]) => any;
    validate?: (...args: any[]) => any;
    validationRules?: ReadonlyArray<ValidationRule>;
    operationName?: string;
    query?: string | DocumentNode;
    variables?: string | Record<string, unknown>;
    request: Request;
    schema: GraphQLSchema;
  }

  export interface ResponseHeader {
    name: string;
    value: string;
  }

  export interface Response {
    type: 'RESPONSE';
    status: number;
    headers: ResponseHeader[];
    payload: ExecutionResult;
  }

  export interface StreamedResult {
    type: 'MULTIPART_RESPONSE' | 'PUSH';
    subscribe(onResult: (result: unknown) => void): Promise<void>;
    unsubscribe(): void;
  }

  export function processRequest<TContext = {}, TRootValue = {}>(options: ProcessRequestOptions<TContext, TRootValue>): Promise<Response | StreamedResult>;

  export interface RenderGraphiQLOptions {
    defaultQuery?: string;
    endpoint?: string;
    headerEditorEnabled?: boolean;
  }

  export function renderGraphiQL(options?: RenderGraphiQLOptions): string;
}
