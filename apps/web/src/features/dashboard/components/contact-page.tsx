/** The side menu's contact entry (spec §2): how to reach SkillHive's team. */
export function ContactPage() {
  return (
    <div className="flex flex-col gap-4">
      <title>Contact — SkillHive</title>
      <h1 className="text-2xl font-bold sm:text-3xl">Contact us</h1>
      <p className="max-w-prose">
        Questions about a class, a payment or your account? Our support team answers within one working day.
      </p>
      <dl className="grid max-w-prose gap-3 rounded-box bg-base-200 p-5">
        <div>
          <dt className="font-semibold">E-mail</dt>
          <dd>support@skillhive.test</dd>
        </div>
        <div>
          <dt className="font-semibold">Hours</dt>
          <dd>Monday to Friday, 9:00–17:00</dd>
        </div>
      </dl>
    </div>
  );
}
