/**
 * One template per message (accounts and e-mail issue §1): each gives a subject, a plain-text body
 * and an HTML body from the same words, with the product's name and a working link.
 */
export interface RenderedMail {
  kind: string;
  subject: string;
  text: string;
  html: string;
}

const PRODUCT = 'SkillHive';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The shared frame: a greeting, paragraphs, one call to action. */
function layout(input: {
  kind: string;
  subject: string;
  greeting: string;
  paragraphs: string[];
  action: { label: string; url: string };
}): RenderedMail {
  const text = [
    input.greeting,
    '',
    ...input.paragraphs.flatMap((p) => [p, '']),
    `${input.action.label}: ${input.action.url}`,
    '',
    `— ${PRODUCT}`,
  ].join('\n');
  const html = `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#1c1917">
<p>${escapeHtml(input.greeting)}</p>
${input.paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
<p><a href="${escapeHtml(input.action.url)}">${escapeHtml(input.action.label)}</a></p>
<p>— ${PRODUCT}</p>
</body></html>`;
  return { kind: input.kind, subject: `${input.subject} — ${PRODUCT}`, text, html };
}

export function teacherRequestDecidedMail(input: {
  publicUrl: string;
  name: string;
  approved: boolean;
  reason?: string | null | undefined;
}): RenderedMail {
  if (input.approved) {
    return layout({
      kind: 'teacher-request-approved',
      subject: 'You can teach on SkillHive now',
      greeting: `Hello ${input.name},`,
      paragraphs: ['Your application to teach was approved. You can add your first class from your dashboard.'],
      action: { label: 'Add a class', url: `${input.publicUrl}/dashboard/addClasses` },
    });
  }
  return layout({
    kind: 'teacher-request-rejected',
    subject: 'Your application to teach',
    greeting: `Hello ${input.name},`,
    paragraphs: [
      'Your application to teach was not approved this time.',
      ...(input.reason ? [`The reason: ${input.reason}`] : []),
      'You may apply again whenever you like.',
    ],
    action: { label: 'Apply again', url: `${input.publicUrl}/teach` },
  });
}
