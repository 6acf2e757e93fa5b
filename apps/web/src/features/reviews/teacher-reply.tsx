import type { ReviewReply } from '@skillhive/shared/contracts/reviews';

/** The class teacher's reply under a review (decision 046): plain text, labelled as the teacher's. */
export function TeacherReply({ reply }: { reply: ReviewReply }) {
  return (
    <div className="mt-1 rounded-box border-l-4 border-accent bg-base-200 p-3">
      <p className="text-sm font-semibold">Reply from the teacher</p>
      <p className="whitespace-pre-line break-words text-sm">{reply.text}</p>
    </div>
  );
}
