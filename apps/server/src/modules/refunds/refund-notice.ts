import type { Db } from '../../db/client.ts';
import { queueMail, refundMail } from '../mail/mail.service.ts';
import { notify, type NotificationPublisher } from '../notifications/notifications.public.ts';
import { contactEmailOf } from '../users/contact.public.ts';

/**
 * Tells the student of a refund through the outbox and their notification centre (decision 047),
 * in the transaction that decides it: an admin's refund (with its reason) or a purchase we could
 * not complete (checkout fulfilment.service.ts). Nothing is sent for a payment whose student
 * deleted their account.
 */
export async function tellStudentOfRefund(
  tx: Db,
  deps: { publicUrl: string; notifications: NotificationPublisher; now: () => Date },
  refund: Omit<Parameters<typeof refundMail>[0], 'publicUrl' | 'name'> & { studentId: string | null },
): Promise<void> {
  const { studentId, ...mail } = refund;
  const student = studentId ? await contactEmailOf(tx, studentId) : null;
  if (!student || !studentId) return;
  await queueMail(tx, student.email, refundMail({ ...mail, publicUrl: deps.publicUrl, name: student.name }));
  const amount = new Intl.NumberFormat('en-US', { style: 'currency', currency: mail.currency.toUpperCase() }).format(
    mail.amountCents / 100,
  );
  await notify(
    tx,
    deps.notifications,
    {
      recipientId: studentId,
      kind: 'refund',
      title: `You are refunded ${amount}`,
      body: mail.titles.join(', '),
      link: '/dashboard/paymentHistory',
    },
    deps.now(),
  );
}
