import type { ReactNode } from 'react';
import { formatPrice } from '@skillhive/shared/rules/money';
import { FallbackImage } from './fallback-image.tsx';

interface ClassRowProps {
  item: { image: string; title: string; name: string; price: number };
  /** A one-line summary (long titles cut short), as on a home page; else the title wraps in full. */
  compact?: boolean;
  /** Under the teacher and price (a note on this line). */
  note?: ReactNode;
  /** At the end of the row (a status badge, a button). */
  children?: ReactNode;
}

/** One class in a list: its picture, title, teacher and price (the student home, the cart). */
export function ClassRow({ item, compact = false, note, children }: ClassRowProps) {
  return (
    <li className="flex items-center gap-3 rounded-box border border-base-300 bg-base-100 p-3">
      <FallbackImage
        src={item.image}
        alt=""
        width={compact ? 64 : 80}
        height={compact ? 40 : 45}
        className={`${compact ? 'h-10 w-16' : 'h-12 w-20'} shrink-0 rounded object-cover`}
      />
      <div className="min-w-0 flex-1">
        <p className={`font-medium ${compact ? 'truncate' : 'break-words'}`}>{item.title}</p>
        <p className={`text-sm text-muted ${compact ? 'truncate' : ''}`}>
          {item.name} · {formatPrice(item.price)}
        </p>
        {note}
      </div>
      {children}
    </li>
  );
}
