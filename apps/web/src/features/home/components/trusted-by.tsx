const PARTNERS = [
  { name: 'Northbeam', logo: '/images/logos/northbeam.svg' },
  { name: 'Quantiq', logo: '/images/logos/quantiq.svg' },
  { name: 'Orbitly', logo: '/images/logos/orbitly.svg' },
  { name: 'Brightpath', logo: '/images/logos/brightpath.svg' },
  { name: 'Stackwise', logo: '/images/logos/stackwise.svg' },
  { name: 'Veridia', logo: '/images/logos/veridia.svg' },
] as const;

/** spec §2: the 'Trusted by the industry leaders' logo strip; logos ship with the app. */
export function TrustedBy() {
  return (
    <section aria-labelledby="trusted-by-title" className="text-center">
      <h2 id="trusted-by-title" className="text-xl font-bold sm:text-2xl">
        Trusted by the industry leaders
      </h2>
      <ul className="mt-8 grid grid-cols-2 items-center gap-6 sm:grid-cols-3 lg:grid-cols-6">
        {PARTNERS.map((partner) => (
          <li key={partner.name} className="flex justify-center">
            <img
              src={partner.logo}
              alt={partner.name}
              width={220}
              height={56}
              loading="lazy"
              decoding="async"
              className="partner-logo h-10 w-auto opacity-90 grayscale transition hover:opacity-100 hover:grayscale-0 sm:h-12"
            />
          </li>
        ))}
      </ul>
    </section>
  );
}
