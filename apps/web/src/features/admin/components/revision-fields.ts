import type { ClassFields, ClassRevision } from '@skillhive/shared/contracts/classes';

/** The fields a revision can change, in the order the review shows them. */
export const FIELDS: { key: keyof ClassFields; label: string }[] = [
  { key: 'title', label: 'Title' },
  { key: 'price', label: 'Price' },
  { key: 'category', label: 'Category' },
  { key: 'description', label: 'Description' },
  { key: 'image', label: 'Image' },
];

export const changedFields = (revision: ClassRevision) =>
  FIELDS.filter(({ key }) => revision.proposed[key] !== undefined);
