import { useId } from 'react';

interface StarRatingProps {
  /** 0–5; fractions are drawn as partial stars. */
  value: number;
  /** Number of stars (spec §9: default 5). */
  max?: number;
  className?: string;
}

/** Read-only star rating (spec §2, §9): at most 180px wide, announced as "Rated N out of 5". */
export function StarRating({ value, max = 5, className = '' }: StarRatingProps) {
  const clipId = useId();
  const clamped = Math.max(0, Math.min(max, value));
  const shown = Math.round(clamped * 10) / 10;
  return (
    <div
      role="img"
      aria-label={`Rated ${shown} out of ${max}`}
      className={`flex w-full max-w-[180px] gap-0.5 ${className}`}
    >
      {Array.from({ length: max }, (_, index) => {
        const fill = Math.max(0, Math.min(1, clamped - index));
        const id = `${clipId}-${index}`;
        return (
          <svg
            key={index}
            viewBox="0 0 24 24"
            className="aspect-square min-w-0 flex-1"
            aria-hidden="true"
            focusable="false"
          >
            <defs>
              <clipPath id={id}>
                <rect x="0" y="0" width={24 * fill} height="24" />
              </clipPath>
            </defs>
            <path
              d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z"
              fill="#e7dcc6"
              stroke="#a14a07"
              strokeWidth="1.2"
            />
            <path
              d="M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.6L12 17.3l-5.9 3.3 1.3-6.6-4.9-4.6 6.6-.8z"
              fill="#f5a300"
              stroke="#a14a07"
              strokeWidth="1.2"
              clipPath={`url(#${id})`}
            />
          </svg>
        );
      })}
    </div>
  );
}
