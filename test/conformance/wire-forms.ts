import { readFileSync } from 'node:fs';

/**
 * The signed wire forms of fixtures/wire-forms.json: made with Python's json module and PyNaCl
 * (how, in the file's `how_to_regenerate`), broadcast in order to a fresh devnet.
 */
export interface WireForm {
  name: string;
  produced_by: string;
  wire_json: string;
  raw_hex: string;
  hash: string;
  expect: { code: 0 | 1; log?: string };
}

export interface WireForms {
  seed: string;
  sender: string;
  chain_id: string;
  forms: WireForm[];
}

export const wireForms = JSON.parse(readFileSync(new URL('./fixtures/wire-forms.json', import.meta.url), 'utf8')) as WireForms;
