/** Deterministic demo content: what an editor would like to find when opening the admin. */

const VENUES = [
  {
    name: 'Riverside Hall',
    address: '12 Quay Street',
    city: 'Lyon',
    country: 'France',
    zip: '69002',
    geoLat: 45.7578,
    geoLng: 4.832,
  },
  {
    name: 'The Old Library',
    address: '5 Market Square',
    city: 'Edinburgh',
    country: 'United Kingdom',
    zip: 'EH1 1AA',
    geoLat: 55.9486,
    geoLng: -3.1999,
  },
  {
    name: 'Harbour Pavilion',
    address: '200 Ocean Drive',
    city: 'Sydney',
    country: 'Australia',
    state: 'NSW',
    geoLat: -33.8568,
    geoLng: 151.2153,
  },
  {
    name: 'Cedar Community Centre',
    address: '48 Cedar Avenue',
    city: 'Toronto',
    country: 'Canada',
    province: 'ON',
    geoLat: 43.6532,
    geoLng: -79.3832,
  },
  {
    name: 'Sunset Amphitheatre',
    address: '1 Hill Road',
    city: 'Austin',
    country: 'United States',
    state: 'TX',
    zip: '78701',
    geoLat: 30.2672,
    geoLng: -97.7431,
  },
  {
    name: 'Dar El Funun',
    address: 'Rue de la Kasbah',
    city: 'Tunis',
    country: 'Tunisia',
    geoLat: 36.8065,
    geoLng: 10.1815,
  },
  {
    name: 'Museo del Barrio',
    address: 'Calle Mayor 3',
    city: 'Madrid',
    country: 'Spain',
    zip: '28013',
    geoLat: 40.4168,
    geoLng: -3.7038,
  },
  {
    name: 'Kulturhaus Mitte',
    address: 'Torstraße 9',
    city: 'Berlin',
    country: 'Germany',
    zip: '10119',
    geoLat: 52.5292,
    geoLng: 13.4016,
  },
]

const ORGANIZERS = [
  {
    name: 'City Arts Council',
    email: 'arts@example.org',
    phone: '+33 4 00 00 00 01',
    website: 'https://arts.example.org',
  },
  { name: 'Friends of Jazz', email: 'jazz@example.org', website: 'https://jazz.example.org' },
  { name: 'Open Science Society', email: 'hello@science.example.org', phone: '+44 131 000 0000' },
  { name: 'Green Streets Collective', email: 'team@greenstreets.example.org' },
  { name: 'Little Readers Club', email: 'read@example.org', phone: '+1 512 000 0000' },
  { name: 'Makers Guild', website: 'https://makers.example.org' },
]

const CATEGORIES = [
  'Music',
  'Theatre',
  'Workshops',
  'Talks',
  'Family',
  'Outdoors',
  'Film',
  'Food & Drink',
]
const TAGS = [
  'free',
  'accessible',
  'outdoor',
  'kids',
  'live',
  'online',
  'evening',
  'weekend',
  'beginner',
  'bilingual',
]

const TITLES = [
  'Jazz in the Courtyard',
  'Community Garden Morning',
  'Intro to Printmaking',
  'Science on Tap',
  'Family Story Hour',
  'Open Mic Night',
  'Street Food Market',
  'Documentary Screening',
  'Chamber Music Evening',
  'Photography Walk',
  'Repair Café',
  'Poetry Slam',
  'Kids Coding Club',
  'Night at the Museum',
  'Sunrise Yoga',
  'Board Game Social',
  'Choir Rehearsal Open Day',
  'Local History Talk',
  'Ceramics Taster',
  'Silent Disco',
]

const TRANSLATIONS: Record<string, { fr: string; ar: string }> = {
  'Jazz in the Courtyard': { fr: 'Jazz dans la cour', ar: 'جاز في الفناء' },
  'Family Story Hour': { fr: 'L’heure du conte en famille', ar: 'ساعة الحكايات العائلية' },
  'Street Food Market': { fr: 'Marché de cuisine de rue', ar: 'سوق طعام الشارع' },
  'Open Mic Night': { fr: 'Scène ouverte', ar: 'ليلة الميكروفون المفتوح' },
  'Science on Tap': { fr: 'La science au comptoir', ar: 'العلم في المقهى' },
}

/** A small seeded generator, so every seed produces the same calendar. */
function generator(seed: number) {
  let state = seed >>> 0
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

export type DemoEvent = {
  title: string
  translations?: { fr: string; ar: string }
  start: Date
  end: Date
  allDay: boolean
  venue: number
  organizers: number[]
  categories: number[]
  tags: number[]
  cost: string[]
  featured: boolean
  description: string
}

export function demoEvents(count: number, from: Date): DemoEvent[] {
  const random = generator(20261122)
  const pick = (n: number) => Math.floor(random() * n)
  const events: DemoEvent[] = []
  for (let i = 0; i < count; i++) {
    const title = TITLES[i % TITLES.length]!
    const day = new Date(from.getTime() + Math.floor((i * 365) / count) * 86_400_000)
    const allDay = i % 17 === 0
    const hour = 9 + pick(12)
    const start = new Date(
      Date.UTC(
        day.getUTCFullYear(),
        day.getUTCMonth(),
        day.getUTCDate(),
        allDay ? 0 : hour,
        pick(2) * 30,
      ),
    )
    const end = new Date(start.getTime() + (allDay ? 86_399_000 : (1 + pick(3)) * 3_600_000))
    const price = pick(4)
    events.push({
      title: `${title} #${Math.floor(i / TITLES.length) + 1}`,
      translations: TRANSLATIONS[title],
      start,
      end,
      allDay,
      venue: pick(VENUES.length),
      organizers: [pick(ORGANIZERS.length), pick(ORGANIZERS.length)].filter(
        (v, k, all) => all.indexOf(v) === k,
      ),
      categories: [pick(CATEGORIES.length)],
      tags: [pick(TAGS.length), pick(TAGS.length)].filter((v, k, all) => all.indexOf(v) === k),
      cost: price === 0 ? ['0'] : price === 1 ? ['10'] : price === 2 ? ['0', '25'] : [],
      featured: i % 11 === 0,
      description: `A ${title.toLowerCase()} for everyone. Bring friends.`,
    })
  }
  return events
}

export const demoVenues = VENUES
export const demoOrganizers = ORGANIZERS
export const demoCategories = CATEGORIES
export const demoTags = TAGS
