interface ArrowButtonProps {
  direction: 'previous' | 'next';
  label: string;
  onClick: () => void;
  className?: string;
}

/** A round arrow button; its accessible name says what it moves (e.g. "Next slide"). */
export function CarouselArrowButton({ direction, label, onClick, className = '' }: ArrowButtonProps) {
  return (
    <button
      type="button"
      className={`btn btn-circle border-base-300 bg-base-100 text-base-content shadow ${className}`}
      aria-label={label}
      onClick={onClick}
    >
      <svg viewBox="0 0 24 24" className="h-5 w-5" aria-hidden="true" focusable="false">
        <path
          d={direction === 'previous' ? 'M15 5l-7 7 7 7' : 'M9 5l7 7-7 7'}
          fill="none"
          stroke="currentColor"
          strokeWidth="2.5"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
    </button>
  );
}
