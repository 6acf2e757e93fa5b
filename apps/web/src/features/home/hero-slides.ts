import type { Category } from '@skillhive/shared/rules/constants';

/*
 * The hero's slides as data, apart from the carousel: the web build reads the first slide's image
 * (app/first-render-urls.ts) to name it in the home page's HTML, and must not load React to do so.
 */

export interface HeroSlide {
  topic: string;
  title: string;
  text: string;
  image: string;
  alt: string;
  /** The category the slide leads to: never a search that could find nothing. */
  category: Category;
  cta: string;
}

/** spec §2 / §9: six topics, 550px high on desktop. Art ships with the app (DESIGN §1.11). */
export const HERO_SLIDES = [
  {
    topic: 'Digital marketing',
    title: 'Grow any brand online',
    text: 'Campaigns, social media and analytics, taught by marketers who run them every day.',
    image: '/images/slides/digital-marketing.svg',
    alt: 'A megaphone sending messages to likes and chats',
    category: 'digital-marketing',
    cta: 'Explore marketing classes',
  },
  {
    topic: 'SEO',
    title: 'Get found with SEO',
    text: 'Keyword research, content and technical SEO — step by step, with real sites.',
    image: '/images/slides/seo.svg',
    alt: 'A search results page under a magnifying glass with the first result ranked #1',
    // SEO is taught in the marketing classes; a search for it could find nothing.
    category: 'digital-marketing',
    cta: 'Explore SEO and marketing classes',
  },
  {
    topic: 'Blockchain',
    title: 'Understand blockchain',
    text: 'Ledgers, smart contracts and what they are really good for, without the hype.',
    image: '/images/slides/blockchain.svg',
    alt: 'Connected cubes forming a chain of blocks',
    // Ledgers and smart contracts are security topics; a search for "blockchain" could find nothing.
    category: 'cyber-security',
    cta: 'Explore security classes',
  },
  {
    topic: 'Graph',
    title: 'Tell stories with graphs',
    text: 'Turn raw numbers into charts and dashboards that people understand at a glance.',
    image: '/images/slides/graph.svg',
    alt: 'A bar chart with a rising trend line and a pie chart',
    category: 'data-science',
    cta: 'Explore data classes',
  },
  {
    topic: 'Web developer',
    title: 'Become a web developer',
    text: 'HTML, CSS, JavaScript and modern frameworks, one real project at a time.',
    image: '/images/slides/web-developer.svg',
    alt: 'A laptop showing HTML and JavaScript code',
    category: 'web-development',
    cta: 'Explore web development classes',
  },
  {
    topic: 'Video editing',
    title: 'Edit videos like a pro',
    text: 'Cutting, colour and sound for creators, marketers and teams.',
    image: '/images/slides/video-editing.svg',
    alt: 'A video player above an editing timeline with a clapperboard',
    category: 'video-editing',
    cta: 'Explore video editing classes',
  },
] as const satisfies readonly HeroSlide[];
