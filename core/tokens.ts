import './single-kernel.js';
import type { InjectionToken } from 'tsyringe';

/** A typed tsyringe token: a unique symbol that carries the type it resolves to. */
export type Token<T> = symbol & { readonly __tokenType?: T };

export function createToken<T>(id: string): Token<T> {
  return Symbol.for(`chainhost:${id}`) as Token<T>;
}

export function asInjectionToken<T>(token: Token<T>): InjectionToken<T> {
  return token as InjectionToken<T>;
}

export function tokenName(token: Token<unknown>): string {
  return token.description?.replace(/^chainhost:/, '') ?? 'anonymous';
}
