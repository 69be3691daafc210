import { describe, expect, it } from 'vitest';
import { SCRIPT_MAX_BYTES, scriptProblem } from './upload-script';

describe('custom script control', () => {
  it('accepts a .sh file up to 64 KiB', () => {
    expect(scriptProblem({ name: 'post.sh', size: 10 })).toBeNull();
    expect(scriptProblem({ name: 'POST.SH', size: SCRIPT_MAX_BYTES })).toBeNull();
  });

  it('refuses other types, empty files and larger files', () => {
    expect(scriptProblem({ name: 'post.bash', size: 10 })).toBe('type');
    expect(scriptProblem({ name: 'post.sh.txt', size: 10 })).toBe('type');
    expect(scriptProblem({ name: 'post.sh', size: 0 })).toBe('empty');
    expect(scriptProblem({ name: 'post.sh', size: SCRIPT_MAX_BYTES + 1 })).toBe('size');
  });
});
