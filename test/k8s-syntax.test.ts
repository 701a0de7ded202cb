import {
  checkDns1123Label,
  checkDns1123Subdomain,
  checkImage,
  checkInteger,
  checkLabelValue,
  checkQualifiedName,
  checkVersion,
  IMAGE_PATTERN,
  quantityValue,
} from '../lib/k8s/syntax';

describe('k8s/syntax', () => {
  test.each(['v1', 'v2', 'v4-rc.1', '1.36.1', 'release_2026.11', 'V'])('accepts the version %s', (v) => {
    expect(checkVersion('version', v)).toBeUndefined();
  });

  test.each(['v1; rm -rf /', '$(id)', '`id`', 'v1 v2', '-v1', 'v1\n', '"v1"', "'v1'", 'v1&', 'v1|cat', 'a'.repeat(64), ''])(
    'refuses the version %j', (v) => {
      expect(checkVersion('version', v)).toMatch(`'version' must be a plain token matching /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/ (letters, digits, '.', '_' and '-'; no spaces or shell characters) but got ${JSON.stringify(v)}`);
    });

  test('refuses a version that is not a string, naming its type', () => {
    expect(checkVersion('version', 1 as unknown)).toMatch(/but got 1$/);
  });

  test.each([
    'busybox:1.36', 'library/busybox:1.36', 'docker.io/library/busybox:1.36', 'localhost:5000/busybox:latest',
    `busybox@sha256:${'a'.repeat(64)}`, `ghcr.io/org/agent:1.0@sha256:${'b'.repeat(64)}`, 'my_registry.example.com/a__b/c-d:TAG_1.0',
  ])('accepts the image %s', (image) => {
    expect(IMAGE_PATTERN.test(image)).toBe(true);
    expect(checkImage('image', image)).toBeUndefined();
  });

  test.each(['', 'busybox', 'Busybox:1.36', 'busybox:', 'busybox:1.36 ', ' busybox:1.36', 'busybox:1.36;id', 'busybox@sha256:abc', 'busybox:$(id)'])(
    'refuses the image %j', (image) => {
      expect(checkImage('image', image)).toMatch(/'image' must be an image reference with a tag or a digest/);
    });

  test.each(['node-reporter', 'a', '0', 'a'.repeat(63)])('accepts the DNS-1123 label %s', (v) => {
    expect(checkDns1123Label('name', v)).toBeUndefined();
  });

  test.each(['', 'A', '-a', 'a-', 'a.b', 'a_b', 'a'.repeat(64)])('refuses the DNS-1123 label %j', (v) => {
    expect(checkDns1123Label('name', v)).toMatch(/'name' must be a DNS-1123 label/);
  });

  test.each(['labex-v135', 'ip-10-0-0-1.ec2.internal'])('accepts the node name %s', (v) => {
    expect(checkDns1123Subdomain('nodeName', v)).toBeUndefined();
  });

  test('refuses a DNS-1123 subdomain of 254 characters', () => {
    expect(checkDns1123Subdomain('nodeName', `${'a'.repeat(63)}.`.repeat(4).slice(0, 254))).toMatch(/'nodeName'/);
  });

  test.each(['kubernetes.io/os', 'node-role.kubernetes.io/control-plane', 'A_b.c-D', 'x'])('accepts the qualified name %s', (v) => {
    expect(checkQualifiedName('key', v)).toBeUndefined();
  });

  test.each(['', 'a', 'A.b_c-1', 'v'.repeat(63)])('accepts the label value %j', (v) => {
    expect(checkLabelValue('value', v)).toBeUndefined();
  });

  test.each([
    ['100m', 0.1], ['0.5', 0.5], ['1', 1], ['64Mi', 64 * 2 ** 20], ['1G', 1e9], ['1e3', 1000], ['.5', 0.5], ['+2', 2], ['1Ki', 1024],
  ])('reads the quantity %s', (text, amount) => {
    expect(quantityValue('q', text)).toBeCloseTo(amount);
  });

  test.each(['32MB', '1.5 Gi', '-1', '0', '0m', 'Mi', '', 'NaN', '1mi', '1ki'])('refuses the quantity %j', (text) => {
    expect(quantityValue('resources.memory.limit', text)).toMatch(`'resources.memory.limit' must be a positive Kubernetes quantity such as '100m', '0.5', '64Mi' or '1G' but got ${JSON.stringify(text)}`);
  });

  test.each([[0, false], [1, true], [86400, true], [86401, false], [2.5, false], [NaN, false], ['5', false]])(
    'checks %j against the range 1..86400', (value, ok) => {
      const found = checkInteger('intervalSeconds', value, 1, 86400);
      if (ok) {
        expect(found).toBeUndefined();
      } else {
        expect(found).toBe(`'intervalSeconds' must be an integer from 1 to 86400 but got ${typeof value === 'string' ? JSON.stringify(value) : value}`);
      }
    });
});
