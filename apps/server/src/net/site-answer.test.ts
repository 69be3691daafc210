import { describe, expect, it } from 'vitest';
import { describeAnswer, sameAnswer, type TSiteAnswer } from './site-answer';

const answer: TSiteAnswer = {
  status: 200,
  location: null,
  bodySha256: 'a'.repeat(64),
  certificate: 'AB:CD:EF',
};

describe('sameAnswer', () => {
  it('tells apart what a visitor sees: status, redirect, body, certificate', () => {
    expect(sameAnswer(answer, { ...answer })).toBe(true);
    expect(sameAnswer(answer, { ...answer, status: 502 })).toBe(false);
    expect(sameAnswer(answer, { ...answer, location: 'https://x.test/' })).toBe(false);
    expect(sameAnswer(answer, { ...answer, bodySha256: 'b'.repeat(64) })).toBe(false);
    expect(sameAnswer(answer, { ...answer, certificate: '01:02' })).toBe(false);
  });

  it('leaves the body out only when told (a body that changes at every request)', () => {
    expect(sameAnswer(answer, { ...answer, bodySha256: 'b'.repeat(64) }, false)).toBe(true);
    expect(sameAnswer(answer, { ...answer, status: 500 }, false)).toBe(false);
  });

  it('says an answer in one line', () => {
    expect(describeAnswer({ ...answer, status: 301, location: 'https://x.test/' })).toBe(
      '301 → https://x.test/, body sha256 aaaaaaaaaaaa…, certificate AB:CD:EF…',
    );
  });
});
