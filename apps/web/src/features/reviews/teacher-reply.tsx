import type { ReactNode } from 'react';
import type { ReviewReply } from '@skillhive/shared/contracts/reviews';

/**
 * The class teacher's reply under a review (decision 046): plain text, labelled as the teacher's;
 * `children` is what the page offers for it (a Report control on the class page).
 */
export function TeacherReply({ reply, children }: { reply: ReviewReply; children?: ReactNode }) {
  return (
    <div className="mt-1 rounded-box border-l-4 border-accent bg-base-200 p-3">
      <p className="text-sm font-semibold">Reply from the teacher</p>
      <p className="whitespace-pre-line break-words text-sm">{reply.text}</p>
      {children}
    </div>
  );
}
