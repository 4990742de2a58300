/** Word lists for synthetic addresses, hosts and reviews. Invented combinations, no real people. */

export const STREET_STEMS = [
  'ALBION', 'ALEXANDRA', 'ASHLEY', 'BATH', 'BELMONT', 'BERKELEY', 'BRUNSWICK', 'CAMDEN', 'CHURCH',
  'CLARENCE', 'COLLEGE', 'CORONATION', 'COTHAM', 'CROMWELL', 'DEAN', 'DOVER', 'DUKE', 'EASTFIELD',
  'ELM', 'FAIRFIELD', 'FERN', 'GLOUCESTER', 'GRANGE', 'GREENBANK', 'HAMPTON', 'HANOVER', 'HAWTHORN',
  'HIGHBURY', 'HILLSIDE', 'HOLLY', 'KENSINGTON', 'KING', 'KINGSLEY', 'LANSDOWN', 'LAUREL', 'LIME',
  'LINDEN', 'MANOR', 'MAPLE', 'MARLBOROUGH', 'MEADOW', 'MILL', 'MONTPELIER', 'NELSON', 'NEWPORT',
  'NORFOLK', 'NORTHCOTE', 'OAKFIELD', 'ORCHARD', 'OXFORD', 'PARK', 'PEMBROKE', 'PRINCE', 'PRIORY',
  'QUEEN', 'RAGLAN', 'RICHMOND', 'ROSE', 'ROYAL', 'RUSSELL', 'SALISBURY', 'SANDY', 'SCHOOL', 'SEFTON',
  'SOMERSET', 'SPRING', 'STANLEY', 'STATION', 'SUNNYSIDE', 'SYCAMORE', 'TALBOT', 'TRAFALGAR',
  'TYNDALL', 'UNION', 'VICTORIA', 'WARWICK', 'WATERLOO', 'WELLINGTON', 'WESTBOURNE', 'WHITEHALL',
  'WILLOW', 'WINDSOR', 'WOODLAND', 'YORK', 'ABBEY', 'BEECH', 'BIRCH', 'BROOK', 'CEDAR', 'CHESTNUT',
];

export const WELSH_STEMS = ['HEOL Y DERI', 'HEOL Y FELIN', 'FFORDD Y GLOWYR', 'HEOL HIR', 'HEOL LAS', 'LON Y CWM'];

/** Street types, with the abbreviation Price Paid sometimes carries. */
export const STREET_TYPES: [string, string][] = [
  ['ROAD', 'RD'], ['STREET', 'ST'], ['AVENUE', 'AVE'], ['CLOSE', 'CL'], ['LANE', 'LN'], ['GARDENS', 'GDNS'],
  ['CRESCENT', 'CRES'], ['TERRACE', 'TERR'], ['WAY', 'WY'], ['DRIVE', 'DR'], ['PLACE', 'PL'], ['HILL', 'HL'],
  ['GROVE', 'GR'], ['PARK', 'PK'], ['WALK', 'WLK'], ['MEWS', 'MWS'],
];

/** Second words of house names (`ROSE COTTAGE`). */
export const HOUSE_NAME_SUFFIXES = ['COTTAGE', 'HOUSE', 'LODGE', 'VIEW', 'BARN'];

export const BUILDING_SUFFIXES = ['COURT', 'HOUSE', 'LODGE', 'MANSIONS', 'APARTMENTS', 'POINT', 'WHARF', 'BUILDING'];

export const FIRST_NAMES = [
  'Sarah', 'James', 'Emma', 'Tom', 'Olivia', 'Harry', 'Sophie', 'Jack', 'Amelia', 'Ollie', 'Chloe', 'Ben',
  'Grace', 'Sam', 'Lucy', 'Dan', 'Hannah', 'Rhys', 'Megan', 'Iwan', 'Cerys', 'Callum', 'Isla', 'Fraser',
  'Ailsa', 'Priya', 'Arjun', 'Fatima', 'Yusuf', 'Mei', 'Wei', 'Ana', 'Luca', 'Marta', 'Kofi', 'Zara',
  'Joe', 'Nadia', 'Ewan', 'Rosie',
];

export const HOST_COMPANIES = ['Harbour Stays', 'City Nest Lets', 'Westgate Serviced Apartments', 'Cosy Key Holidays', 'Urban Hideaways'];

export const REVIEW_OPENERS = [
  'Lovely place to stay', 'Great location', 'Really comfortable flat', 'Host was very responsive',
  'Spotless and well equipped', 'Perfect for a weekend away', 'Good value', 'Exactly as described',
  'A bit noisy at night but otherwise fine', 'Beautiful home', 'Handy for the station',
];

export const REVIEW_DETAILS = [
  'The bed was really comfy.', 'Check-in was easy, with clear instructions.', 'Plenty of cafes nearby.',
  'Would definitely stay again!', 'Parking was a little tricky.', 'The "welcome pack" was a nice touch.',
  'Heating took a while to warm up, but the host sorted it quickly.', 'Great shower, strong water pressure.',
  'Walking distance to everything, highly recommend.', 'Kitchen had everything we needed, coffee, tea, spices.',
];

export const AMENITIES = [
  'Wifi', 'Kitchen', 'Heating', 'Smoke alarm', 'Essentials', 'Hair dryer', 'Washer', 'Hot water',
  'Dedicated workspace', 'TV', 'Iron', 'Microwave', 'Refrigerator', 'Dishes and silverware', 'Bed linens',
  'Carbon monoxide alarm', 'Free street parking', 'Long term stays allowed', 'Self check-in', 'Lockbox',
  'Coffee maker', 'Oven', 'Hangers', 'Shampoo', 'First aid kit', 'Dishwasher', 'Private entrance',
  'Garden', 'Pets allowed', 'Free parking on premises',
];
