import { selectVariants } from '../lib/variants';

describe('selectVariants', () => {
  test('selects every variant when nothing is named', () => {
    expect(selectVariants(['v1', 'v2'])).toEqual(['v1', 'v2']);
    expect(selectVariants(['v1', 'v2'], ' ')).toEqual(['v1', 'v2']);
  });

  test('selects the named variants, in the app\'s order', () => {
    expect(selectVariants(['v1', 'v2'], 'v2')).toEqual(['v2']);
    expect(selectVariants(['v1', 'v2'], 'v2, v1')).toEqual(['v1', 'v2']);
  });

  test('throws on a variant the app does not know', () => {
    expect(() => selectVariants(['v1', 'v2'], 'v1,v3')).toThrow('\'NODE_REPORTER_VARIANTS\' must list variants among v1, v2 but got "v3"');
  });
});
