import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';
import { count, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schema } from '../src/db/client.ts';
import { loadEnv } from '../src/env.ts';
import { createStorage } from '../src/modules/uploads/create-storage.ts';
import { objectKeyFor, s3PublicUrl } from '../src/modules/uploads/s3-storage.ts';
import { IMAGE_KEY_PATTERN, keyFromImageUrl, UPLOAD_ROUTE_PREFIX } from '../src/modules/uploads/storage.public.ts';
import { createTestApp, createUser, type TestContext, type TestUser } from './harness.ts';
import { multipartBody } from './upload-fixtures.ts';

/** A PNG chunk with its CRC. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A decompression bomb: a ~1 KB PNG whose header declares 20000×20000 px (400 megapixels,
 * 400 MB once decoded). Only the first rows are present: nothing past the header may be needed
 * to refuse it.
 */
function pngBomb(width = 20_000, height = 20_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = Buffer.alloc((width + 1) * 64);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

const gradient = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } });

/** A JPEG as a phone writes it: camera make and the GPS position of where it was taken. */
async function jpegWithGps(): Promise<Buffer> {
  return gradient(2000, 1000)
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: 'SkillHive Test Camera', Model: 'T-1' },
      IFD3: {
        GPSLatitudeRef: 'N',
        GPSLatitude: '51/1 30/1 2646/100',
        GPSLongitudeRef: 'W',
        GPSLongitude: '0/1 7/1 3954/100',
      },
    })
    .toBuffer();
}

const hasGpsIfd = (exif: Buffer | undefined) =>
  // The GPS IFD pointer tag 0x8825, in either byte order.
  Boolean(exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]))));

let ctx: TestContext;
let student: TestUser;

beforeAll(async () => {
  // One student uploads every picture of this file; the per-user limit has its own tests (upload-limits).
  ctx = await createTestApp({ RATE_LIMIT_UPLOADS_PER_MINUTE: '1000' });
  student = await createUser(ctx, 'student');
});
afterAll(async () => {
  await ctx?.close();
});

async function upload(
  bytes: Buffer,
  options: Parameters<typeof multipartBody>[1] = {},
  user: TestUser | null = student,
) {
  const body = multipartBody(bytes, options);
  return ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/images',
    payload: body.payload,
    headers: { ...body.headers, ...(user ? user.headers : {}) },
  });
}

async function uploadCount(): Promise<number> {
  const [row] = await ctx.db.select({ n: count() }).from(schema.uploads);
  return row?.n ?? 0;
}

async function fetchBytes(url: string): Promise<{ status: number; headers: Record<string, unknown>; bytes: Buffer }> {
  const res = await ctx.app.inject({ method: 'GET', url });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload };
}

describe('POST /api/uploads/images', () => {
  it('needs a signed-in caller', async () => {
    const res = await upload(await gradient(50, 50).png().toBuffer(), {}, null);
    expect(res.statusCode).toBe(401);
  });

  it('re-encodes a JPEG to WebP at most 1600 px wide, with its EXIF GPS position gone', async () => {
    const jpeg = await jpegWithGps();
    const before = await sharp(jpeg).metadata();
    expect(hasGpsIfd(before.exif)).toBe(true);

    const res = await upload(jpeg, { filename: 'holiday.jpg', type: 'image/jpeg' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      success: true,
      data: {
        display_url: expect.stringMatching(/^\/api\/uploads\/images\/[a-f0-9]{64}\.webp$/),
        thumb_url: expect.any(String),
        width: 1600,
        height: 800,
      },
    });

    const display = await fetchBytes(body.data.display_url);
    expect(display.status).toBe(200);
    const after = await sharp(display.bytes).metadata();
    expect(after.format).toBe('webp');
    expect([after.width, after.height]).toEqual([1600, 800]);
    expect(after.exif).toBeUndefined();
    expect(after.xmp).toBeUndefined();
    expect(hasGpsIfd(display.bytes)).toBe(false);

    const thumb = await fetchBytes(body.data.thumb_url);
    expect(thumb.status).toBe(200);
    const thumbMeta = await sharp(thumb.bytes).metadata();
    expect([thumbMeta.format, thumbMeta.width, thumbMeta.exif]).toEqual(['webp', 480, undefined]);

    // Stored: the row is the caller's upload, keyed by the content address.
    const key = keyFromImageUrl(body.data.display_url, ctx.storage)!;
    const [row] = await ctx.db.select().from(schema.uploads).where(eq(schema.uploads.key, key));
    expect(row).toMatchObject({
      ownerId: student.id,
      contentType: 'image/webp',
      width: 1600,
      height: 800,
      bytes: display.bytes.length,
    });
  });

  it('accepts a PNG and keeps a small picture at its own size', async () => {
    const png = await gradient(640, 360).png().toBuffer();
    const res = await upload(png, { filename: 'diagram.png', type: 'image/png' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ width: 640, height: 360 });
    const stored = await fetchBytes(res.json().data.display_url);
    expect((await sharp(stored.bytes).metadata()).format).toBe('webp');
  });

  it.each([
    ['WebP', () => gradient(120, 80).webp().toBuffer()],
    ['GIF', () => gradient(120, 80).gif().toBuffer()],
    ['AVIF', () => gradient(120, 80).avif().toBuffer()],
  ])('accepts %s', async (_name, make) => {
    const res = await upload(await make(), { type: 'application/octet-stream' });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ width: 120, height: 80 });
  });

  it('stores the same picture once, whoever uploads it again', async () => {
    const png = await gradient(90, 90).png().toBuffer();
    const first = await upload(png);
    const second = await upload(png);
    expect(second.json().data.display_url).toBe(first.json().data.display_url);
    const key = keyFromImageUrl(first.json().data.display_url, ctx.storage)!;
    expect(await ctx.db.select().from(schema.uploads).where(eq(schema.uploads.key, key))).toHaveLength(1);
  });

  it('refuses an SVG carrying a script with 415, whatever it claims to be', async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(document.cookie)</script><rect width="10" height="10"/></svg>',
    );
    const before = await uploadCount();
    for (const options of [
      { filename: 'logo.svg', type: 'image/svg+xml' },
      { filename: 'logo.png', type: 'image/png' },
    ]) {
      const res = await upload(svg, options);
      expect(res.statusCode).toBe(415);
      expect(res.json().error).toMatchObject({
        code: 'unsupported_media_type',
        message: 'Upload a JPEG, PNG, WebP, GIF or AVIF image',
      });
    }
    expect(await uploadCount()).toBe(before);
  });

  it('refuses an HTML file named .jpg with 415', async () => {
    const html = Buffer.from('<!DOCTYPE html><html><body><script>fetch("/api/users")</script></body></html>');
    const res = await upload(html, { filename: 'photo.jpg', type: 'image/jpeg' });
    expect(res.statusCode).toBe(415);
  });

  it('refuses other real file types (a PDF, a TIFF) with 415', async () => {
    const pdf = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF');
    expect((await upload(pdf, { filename: 'cv.pdf' })).statusCode).toBe(415);
    const tiff = await gradient(20, 20).tiff().toBuffer();
    expect((await upload(tiff, { filename: 'scan.tif' })).statusCode).toBe(415);
  });

  it('refuses a 6 MB file with 413', async () => {
    // Noise does not compress: an uncompressed PNG of random pixels is a real 6+ MB image.
    const width = 1500;
    const height = 1400;
    const png = await sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(png.length).toBeGreaterThan(6 * 1024 * 1024);
    const before = await uploadCount();
    const res = await upload(png, { filename: 'huge.png', type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'payload_too_large', message: 'The image must be at most 5 MB' });
    expect(await uploadCount()).toBe(before);
  });

  it('refuses a decompression bomb (1 KB declaring 20000×20000 px) with 413 before decoding it', async () => {
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(4096);
    const rssBefore = process.memoryUsage().rss;
    const started = performance.now();
    const res = await upload(bomb, { filename: 'bomb.png', type: 'image/png' });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({
      code: 'payload_too_large',
      message: 'The image must be at most 40 megapixels',
    });
    // Decoding it would take 400 MB and seconds; refusing it takes neither.
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(100 * 1024 * 1024);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses a picture just over 40 megapixels, and reads one under it', async () => {
    expect((await upload(pngBomb(8000, 5001))).statusCode).toBe(413);
    // 8000×5000 is exactly 40 MP: the header check lets it through (it then fails to decode: truncated).
    expect((await upload(pngBomb(8000, 5000))).statusCode).toBe(400);
  });

  it('answers 400, not 500, for a damaged image with a valid signature', async () => {
    const jpeg = await gradient(200, 200).jpeg().toBuffer();
    // Header intact, pixel data garbage: fails while decoding. Cut in half: fails reading the header.
    for (const damaged of [
      Buffer.concat([jpeg.subarray(0, 300), Buffer.alloc(300, 0x5a)]),
      jpeg.subarray(0, jpeg.length / 2),
    ]) {
      const res = await upload(damaged, { filename: 'broken.jpg', type: 'image/jpeg' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation_error', message: 'The image could not be read' });
    }
  });

  it('asks for multipart with the field "image"', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads/images',
      headers: student.headers,
      payload: { image: 'https://example.test/a.png' },
    });
    expect(json.statusCode).toBe(415);
    const png = await gradient(20, 20).png().toBuffer();
    const wrongField = await upload(png, { field: 'file' });
    expect(wrongField.statusCode).toBe(400);
    expect(wrongField.json().error.fields).toEqual({ image: 'Choose an image to upload' });
    const empty = await upload(Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
  });
});

describe('GET /api/uploads/images/:key', () => {
  it('serves WebP bytes with immutable caching and nosniff', async () => {
    const res = await upload(await gradient(64, 64).png().toBuffer());
    const image = await ctx.app.inject({ method: 'GET', url: res.json().data.display_url });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(image.headers['content-length'])).toBe(image.rawPayload.length);
  });

  it('answers 404 for unknown keys and for anything that is not a key', async () => {
    for (const key of ['0'.repeat(64) + '.webp', 'not-a-key', '..%2F..%2Fetc%2Fpasswd', 'a'.repeat(64) + '.svg']) {
      const res = await ctx.app.inject({ method: 'GET', url: `${UPLOAD_ROUTE_PREFIX}${key}` });
      expect(res.statusCode, key).toBe(404);
      expect(res.json().error.code).toBe('not_found');
    }
  });
});

describe('S3-compatible storage', () => {
  it('names objects by their content address and builds public URLs', () => {
    const key = `${'ab'.repeat(32)}.webp`;
    expect(objectKeyFor(key)).toBe(key);
    expect(() => objectKeyFor('../secret')).toThrow();
    expect(s3PublicUrl(undefined, key)).toBe(`/api/uploads/images/${key}`);
    expect(s3PublicUrl('https://cdn.example.test/images', key)).toBe(`https://cdn.example.test/images/${key}`);
    expect(s3PublicUrl('https://cdn.example.test/images/', key)).toBe(`https://cdn.example.test/images/${key}`);
  });

  it('is chosen when S3_BUCKET is set, and knows its own URLs back', () => {
    const key = `${'cd'.repeat(32)}.webp`;
    const base = {
      DATA_DIR: ctx.dataDir,
      S3_BUCKET: 'skillhive',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    const viaRoute = createStorage(loadEnv(base));
    expect(viaRoute.publicUrl(key)).toBe(`/api/uploads/images/${key}`);
    const viaCdn = createStorage(loadEnv({ ...base, S3_PUBLIC_URL: 'https://cdn.example.test/img' }));
    expect(viaCdn.publicUrl(key)).toBe(`https://cdn.example.test/img/${key}`);
    expect(keyFromImageUrl(`https://cdn.example.test/img/${key}`, viaCdn)).toBe(key);
    // Our own route serves every storage, so its URLs stay valid after moving to a CDN.
    expect(keyFromImageUrl(`/api/uploads/images/${key}`, viaCdn)).toBe(key);
    expect(keyFromImageUrl(`https://elsewhere.example.test/img/${key}`, viaCdn)).toBeNull();
    expect(keyFromImageUrl(`https://cdn.example.test/img/${key}x`, viaCdn)).toBeNull();
    // The local storage stays the default.
    expect(createStorage(loadEnv({ DATA_DIR: ctx.dataDir })).publicUrl(key)).toBe(`/api/uploads/images/${key}`);
  });

  describe('against a fake S3 endpoint on loopback (the real SDK on the wire)', () => {
    const objects = new Map<string, { body: Buffer; type: string; cacheControl: string }>();
    const requests: { method: string; path: string; authorization: string }[] = [];
    let server: Server;
    let s3: TestContext;
    let teacher: TestUser;

    const readBody = async (req: IncomingMessage) => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks);
    };

    beforeAll(async () => {
      // Path-style S3: PUT/GET /<bucket>/<key>; unknown keys answer S3's NoSuchKey error.
      server = createServer(async (req, res) => {
        const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
        requests.push({ method: req.method ?? '', path, authorization: String(req.headers.authorization ?? '') });
        if (req.method === 'PUT') {
          objects.set(path, {
            body: await readBody(req),
            type: String(req.headers['content-type']),
            cacheControl: String(req.headers['cache-control']),
          });
          res.writeHead(200, { etag: '"fake"' }).end();
          return;
        }
        if (req.method === 'DELETE') {
          // S3 answers 204 whether or not the key existed.
          objects.delete(path);
          res.writeHead(204).end();
          return;
        }
        const object = objects.get(path);
        if (req.method === 'GET' && object) {
          res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length }).end(object.body);
          return;
        }
        res
          .writeHead(404, { 'content-type': 'application/xml' })
          .end(
            '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
          );
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const settings = {
        S3_BUCKET: 'skillhive-images',
        S3_REGION: 'eu-west-1',
        S3_ENDPOINT: endpoint,
        S3_ACCESS_KEY_ID: 'test-access-key',
        S3_SECRET_ACCESS_KEY: 'test-secret-key',
        S3_PUBLIC_URL: 'https://cdn.example.test/images',
      };
      const storage = createStorage(loadEnv({ DATA_DIR: ctx.dataDir, ...settings }));
      s3 = await createTestApp(settings, { storage });
      teacher = await createUser(s3, 'teacher');
    });
    afterAll(async () => {
      await s3?.close();
      await new Promise((resolve) => server?.close(resolve));
    });

    it('puts the WebP and its thumbnail in the bucket, signed, with immutable caching', async () => {
      const body = multipartBody(await gradient(300, 200).png().toBuffer());
      const res = await s3.app.inject({
        method: 'POST',
        url: '/api/uploads/images',
        payload: body.payload,
        headers: { ...body.headers, ...teacher.headers },
      });
      expect(res.statusCode).toBe(200);
      const { display_url: displayUrl, thumb_url: thumbUrl } = res.json().data;
      expect(displayUrl).toMatch(/^https:\/\/cdn\.example\.test\/images\/[a-f0-9]{64}\.webp$/);
      const key = displayUrl.split('/').pop();
      expect(IMAGE_KEY_PATTERN.test(key)).toBe(true);

      const stored = objects.get(`/skillhive-images/${key}`);
      expect(stored).toMatchObject({ type: 'image/webp', cacheControl: 'public, max-age=31536000, immutable' });
      expect((await sharp(stored!.body).metadata()).format).toBe('webp');
      expect(objects.has(`/skillhive-images/${thumbUrl.split('/').pop()}`)).toBe(true);
      const put = requests.find((r) => r.method === 'PUT');
      expect(put?.authorization).toMatch(
        /^AWS4-HMAC-SHA256 Credential=test-access-key\/\d{8}\/eu-west-1\/s3\/aws4_request/,
      );

      // Our route streams it from the bucket; a key the bucket lacks is a 404.
      const served = await s3.app.inject({ method: 'GET', url: `/api/uploads/images/${key}` });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/webp');
      expect(served.rawPayload.equals(stored!.body)).toBe(true);
      const missing = await s3.app.inject({ method: 'GET', url: `/api/uploads/images/${'e'.repeat(64)}.webp` });
      expect(missing.statusCode).toBe(404);

      // The CDN URL is one of our uploads: a class may use it.
      const created = await s3.app.inject({
        method: 'POST',
        url: '/api/classes',
        headers: teacher.headers,
        payload: {
          title: 'Bucketed',
          price: 10,
          description: 'Stored in S3',
          image: displayUrl,
          category: 'data-science',
        },
      });
      expect(created.statusCode).toBe(200);
      const item = await s3.app.inject({
        method: 'GET',
        url: `/api/classes/${created.json().insertedId}`,
        headers: teacher.headers,
      });
      expect(item.json().image).toBe(displayUrl);
    });

    it('deletes an object from the bucket, and a key already gone is not an error', async () => {
      const key = `${'d'.repeat(64)}.webp`;
      await s3.storage.put(key, Buffer.from('webp bytes'), 'image/webp');
      expect(objects.has(`/skillhive-images/${key}`)).toBe(true);
      await s3.storage.delete(key);
      expect(objects.has(`/skillhive-images/${key}`)).toBe(false);
      expect(requests.at(-1)).toMatchObject({ method: 'DELETE', path: `/skillhive-images/${key}` });
      await expect(s3.storage.delete(key)).resolves.toBeUndefined();
      expect(await s3.storage.get(key)).toBeNull();
    });
  });
});

describe('OpenAPI', () => {
  it('documents every endpoint of the teaching workflow with a tag, an operationId and who may call it', async () => {
    const spec = (await ctx.app.inject('/api/docs/json')).json();
    const expected: [string, string, string][] = [
      ['/api/uploads/images', 'post', 'uploadImage'],
      ['/api/uploads/images/{key}', 'get', 'getImage'],
      ['/api/teachers/teacher-requests', 'post', 'applyToTeach'],
      ['/api/teachers/teacher-requests', 'get', 'listTeacherRequests'],
      ['/api/teachers/teacher-requests/mine', 'get', 'getMyTeacherRequest'],
      ['/api/teachers/teacher-requests/{id}/approve', 'patch', 'approveTeacherRequest'],
      ['/api/teachers/teacher-requests/{id}/reject', 'patch', 'rejectTeacherRequest'],
      ['/api/classes', 'post', 'createClass'],
      ['/api/classes', 'get', 'listClasses'],
      ['/api/classes/{id}', 'get', 'getClass'],
      ['/api/classes/{id}', 'patch', 'updateClass'],
      ['/api/classes/{id}', 'delete', 'deleteClass'],
      ['/api/classes/{id}/stats', 'get', 'getClassStats'],
      ['/api/classes/teacher/{email}', 'get', 'listTeacherClasses'],
      ['/api/classes/class-requests/{id}/approve', 'patch', 'approveClass'],
      ['/api/classes/class-requests/{id}/reject', 'patch', 'rejectClass'],
    ];
    for (const [path, method, operationId] of expected) {
      const operation = spec.paths[path]?.[method];
      expect(operation?.operationId, `${method} ${path}`).toBe(operationId);
      expect(operation.tags).toHaveLength(1);
      expect(operation.summary).toMatch(
        /\((public|any signed-in user[^)]*|admins only|teachers only|its teacher[^)]*|that teacher[^)]*)\)$/,
      );
    }
  });
});
