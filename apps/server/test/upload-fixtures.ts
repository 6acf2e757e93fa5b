import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { expect } from 'vitest';
import type { TestContext, TestUser } from './harness.ts';

/** A multipart/form-data body with one file part, as a browser's FormData sends it. */
export function multipartBody(bytes: Buffer, options: { field?: string; filename?: string; type?: string } = {}) {
  const boundary = `----skillhive${randomBytes(8).toString('hex')}`;
  const head =
    `--${boundary}\r\nContent-Disposition: form-data; name="${options.field ?? 'image'}"; filename="${options.filename ?? 'picture.bin'}"\r\n` +
    `Content-Type: ${options.type ?? 'application/octet-stream'}\r\n\r\n`;
  return {
    payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** Uploads a plain 320×180 picture of one colour through the real route; answers its display URL. */
export async function uploadPicture(
  ctx: Pick<TestContext, 'app'>,
  user: Pick<TestUser, 'headers'>,
  [r, g, b]: number[],
): Promise<string> {
  const png = await sharp({ create: { width: 320, height: 180, channels: 3, background: { r: r!, g: g!, b: b! } } })
    .png()
    .toBuffer();
  const body = multipartBody(png, { filename: 'c.png', type: 'image/png' });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/uploads/images',
    payload: body.payload,
    headers: { ...body.headers, ...user.headers },
  });
  expect(res.statusCode).toBe(200);
  return (res.json() as { data: { display_url: string } }).data.display_url;
}
