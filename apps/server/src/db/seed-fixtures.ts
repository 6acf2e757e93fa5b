/*
 * The seed's fixtures: names, review texts and the generated pictures (decision 015: like the seed,
 * above the modules, since a picture is stored as uploads stores one).
 */
import { processImage } from '../modules/uploads/image-processing.ts';
import type { ImageStorage } from '../modules/uploads/storage.public.ts';
import type { Category } from '@skillhive/shared/rules/constants';
import type { schema } from './client.ts';

/** Six class titles per category, in the seed's order. */
export const TOPICS: Record<Category, string[]> = {
  'web-development': [
    'React from zero to production',
    'Modern CSS layouts',
    'TypeScript for JavaScript developers',
    'Building REST APIs with Node.js',
    'Accessible web forms',
    'Web performance in practice',
  ],
  'digital-marketing': [
    'SEO fundamentals',
    'Email campaigns that convert',
    'Social media strategy',
    'Paid search for small budgets',
    'Content marketing playbook',
    'Marketing analytics basics',
  ],
  'graphic-design': [
    'Typography essentials',
    'Logo design workshop',
    'Colour theory for designers',
    'Illustration with vector tools',
    'Designing for print',
    'Brand identity systems',
  ],
  'data-science': [
    'Python for data analysis',
    'Statistics without tears',
    'Machine learning foundations',
    'Data visualisation with charts',
    'SQL for analysts',
    'Forecasting time series',
  ],
  'cyber-security': [
    'Security basics for everyone',
    'Web application security',
    'Network defence fundamentals',
    'Incident response 101',
    'Secure coding practices',
    'Cloud security essentials',
  ],
  'video-editing': [
    'Video editing for beginners',
    'Colour grading',
    'Storytelling with cuts',
    'Motion graphics intro',
    'Editing for social media',
    'Sound design for video',
  ],
};

export const CATEGORY_COLOURS: Record<Category, [string, string]> = {
  'web-development': ['#1d4ed8', '#60a5fa'],
  'digital-marketing': ['#be185d', '#f9a8d4'],
  'graphic-design': ['#7c3aed', '#c4b5fd'],
  'data-science': ['#047857', '#6ee7b7'],
  'cyber-security': ['#334155', '#94a3b8'],
  'video-editing': ['#b45309', '#fcd34d'],
};

export const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Linus',
  'Margaret',
  'Tim',
  'Barbara',
  'Ken',
  'Radia',
  'Dennis',
  'Frances',
  'Edsger',
  'Hedy',
  'Donald',
  'Katherine',
  'John',
];
export const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Torvalds',
  'Hamilton',
  'Berners',
  'Liskov',
  'Thompson',
  'Perlman',
  'Ritchie',
  'Allen',
  'Dijkstra',
  'Lamarr',
  'Knuth',
  'Johnson',
  'McCarthy',
];

export const REVIEW_TEXTS = [
  'Clear explanations and practical exercises. I used what I learned the same week.',
  'The teacher answered every question and the pace was just right.',
  'Great structure: short lessons, real projects, honest feedback.',
  'I came in knowing nothing and left with a portfolio piece.',
  'Well prepared material. A few parts were fast, but the recordings helped.',
  'Exactly what I needed to move from theory to practice.',
];

/**
 * A simple generated picture (no text, so no fonts needed) as SVG source. storeImage renders it
 * straight into the WebP an upload becomes: no intermediate PNG to encode and decode again.
 */
export function generatedImage(colours: [string, string], seed: number, width: number, height: number): Buffer {
  const [dark, light] = colours;
  const shapes = Array.from({ length: 5 }, (_, i) => {
    const cx = ((seed * 37 + i * 173) % width) | 0;
    const cy = ((seed * 53 + i * 97) % height) | 0;
    const r = 40 + ((seed * 11 + i * 29) % Math.round(height / 3));
    return `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${light}" fill-opacity="${0.15 + i * 0.08}"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${dark}"/><stop offset="1" stop-color="${light}"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${shapes}</svg>`;
  return Buffer.from(svg);
}

export type UploadRow = typeof schema.uploads.$inferInsert;

/** Renders and stores a picture; its `uploads` row is collected for the seed's one transaction. */
export async function storeImage(
  storage: ImageStorage,
  source: Buffer,
  ownerId: string | null,
  uploadRows: UploadRow[],
): Promise<string> {
  const image = await processImage(source, 40_000_000);
  await storage.put(image.key, image.display, 'image/webp');
  await storage.put(image.thumbKey, image.thumb, 'image/webp');
  uploadRows.push({
    key: image.key,
    ownerId,
    contentType: 'image/webp',
    width: image.width,
    height: image.height,
    bytes: image.display.length,
  });
  return image.key;
}
