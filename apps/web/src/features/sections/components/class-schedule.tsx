import { type ReactNode, useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PublicSection } from '@skillhive/shared/contracts/sections';
import { formatDuration, formatSessionStart, viewerTimeZone } from '../../../lib/session-time.ts';
import { classScheduleQueryOptions } from '../api/sections.ts';

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Whether any section of the schedule can be bought now (none listed: a self-paced class, always). */
export function canBuyFrom(sections: readonly PublicSection[] | undefined): boolean {
  return sections === undefined || sections.length === 0 || sections.some((section) => section.open);
}

/**
 * The section a buyer picked in a ClassSchedule, and whether anything can be bought: the state a
 * page keeps for its Pay Now (the public class page, the dashboard's classDetails).
 */
export function useSectionChoice() {
  const [choice, setChoice] = useState<{ sectionId: string | null; canBuy: boolean }>({
    sectionId: null,
    canBuy: true,
  });
  const onSelect = useCallback(
    (sectionId: string | null, canBuy: boolean) =>
      setChoice((old) => (old.sectionId === sectionId && old.canBuy === canBuy ? old : { sectionId, canBuy })),
    [],
  );
  return { ...choice, onSelect };
}

/**
 * The public class page's schedule (decision 042): each upcoming section with its session times in
 * the viewer's own time zone, the zone named, its seats left, its enrollment deadline and "Full";
 * the buyer picks the section Pay Now enrolls in. Fetched in the browser only, so the times are
 * formatted in the visitor's zone (a server render would use the server's). A self-paced class has
 * no section and shows nothing.
 */
export function ClassSchedule({
  classId,
  selected,
  onSelect,
  renderFull,
}: {
  classId: string;
  selected: string | null;
  onSelect: (sectionId: string | null, canBuy: boolean) => void;
  /** Under a full section: its waiting list (the waitlists feature, decision 051). */
  renderFull?: ((section: PublicSection, name: string) => ReactNode) | undefined;
}) {
  const query = useQuery(classScheduleQueryOptions(classId));
  const sections = query.data;
  // The first section that can be bought is picked for the buyer; a full one never stays picked.
  useEffect(() => {
    if (!sections) return;
    const current = sections.find((section) => section._id === selected && section.open);
    const pick = current ?? sections.find((section) => section.open) ?? null;
    onSelect(pick?._id ?? null, canBuyFrom(sections));
  }, [sections, selected, onSelect]);

  if (!sections || sections.length === 0) return null;
  const zone = viewerTimeZone();
  return (
    <fieldset className="flex w-full flex-col gap-2" data-testid="class-schedule">
      <legend className="mb-1 font-semibold">Choose a section</legend>
      <p className="text-sm text-muted">Times are shown in your time zone ({zone}).</p>
      {canBuyFrom(sections) ? null : (
        <p role="status" className="alert alert-warning text-sm">
          Every section is full or closed for enrollment.
        </p>
      )}
      {sections.map((section, index) => (
        <div key={section._id} className="flex flex-col gap-1">
          <label
            className={`flex cursor-pointer gap-3 rounded-box border p-3 ${
              section._id === selected ? 'border-primary' : 'border-base-300'
            } ${section.open ? '' : 'cursor-not-allowed opacity-80'}`}
            data-testid="schedule-section"
          >
            <input
              type="radio"
              name={`section-${classId}`}
              className="radio radio-primary mt-1"
              value={section._id}
              checked={section._id === selected}
              disabled={!section.open}
              onChange={() => onSelect(section._id, true)}
            />
            <span className="flex min-w-0 flex-col gap-1">
              <span className="font-medium">
                Section {index + 1}
                {section.full ? <span className="badge badge-warning ml-2">Full</span> : null}
              </span>
              {section.sessions.length > 0 ? (
                <ul className="text-sm">
                  {section.sessions.map((session) => (
                    <li key={session.startsAt + session.title}>
                      {formatSessionStart(session.startsAt)} · {formatDuration(session.durationMinutes)} —{' '}
                      {session.title}
                    </li>
                  ))}
                </ul>
              ) : (
                <span className="text-sm text-muted">Session times to be announced</span>
              )}
              <span className="text-sm text-muted">
                {section.seatsLeft === null
                  ? 'Seats available'
                  : section.full
                    ? 'No seats left'
                    : `${plural(section.seatsLeft, 'seat', 'seats')} left`}
                {section.enrollClosesAt ? ` · Enroll by ${formatSessionStart(section.enrollClosesAt)}` : ''}
              </span>
            </span>
          </label>
          {section.full && renderFull ? renderFull(section, `Section ${index + 1}`) : null}
        </div>
      ))}
    </fieldset>
  );
}
