import type { AirbnbListingRow } from '../../../schemas/sources/airbnb.ts';
import { notCsv, same, source } from '../source.ts';
import { readAirbnbListings } from './read.ts';

export const airbnbListings = source<AirbnbListingRow, 'airbnb_listings'>({
  kind: 'airbnb_listings', version: 1,
  folders: ['airbnb'],
  sniff: (f) => notCsv(f) ?? (f.name.startsWith('listings') || undefined),
  table: 'stg_airbnb_listings',
  read: readAirbnbListings,
  columns: [
    // Listing and host ids pass 2^53 in recent scrapes: kept as text end to end.
    ...same<AirbnbListingRow>('VARCHAR', 'id', 'name', 'host_id', 'host_since'),
    ...same<AirbnbListingRow>('BOOLEAN', 'host_is_superhost'),
    ...same<AirbnbListingRow>('INTEGER', 'host_listings_count'),
    ...same<AirbnbListingRow>('VARCHAR', 'neighbourhood_cleansed'),
    ...same<AirbnbListingRow>('DOUBLE', 'latitude', 'longitude'),
    ...same<AirbnbListingRow>('VARCHAR', 'property_type', 'room_type'),
    ...same<AirbnbListingRow>('INTEGER', 'accommodates'),
    ...same<AirbnbListingRow>('DOUBLE', 'bathrooms'),
    ...same<AirbnbListingRow>('VARCHAR', 'bathrooms_text'),
    ...same<AirbnbListingRow>('INTEGER', 'bedrooms', 'beds'),
    ...same<AirbnbListingRow>('VARCHAR[]', 'amenities'),
    ...same<AirbnbListingRow>('DOUBLE', 'price_gbp'),
    ...same<AirbnbListingRow>('INTEGER', 'minimum_nights', 'maximum_nights', 'availability_30', 'availability_60',
      'availability_90', 'availability_365', 'number_of_reviews', 'number_of_reviews_ltm', 'number_of_reviews_l30d'),
    ...same<AirbnbListingRow>('VARCHAR', 'first_review', 'last_review'),
    ...same<AirbnbListingRow>('DOUBLE', 'review_scores_rating', 'review_scores_accuracy', 'review_scores_cleanliness',
      'review_scores_checkin', 'review_scores_communication', 'review_scores_location', 'review_scores_value'),
    ...same<AirbnbListingRow>('BOOLEAN', 'instant_bookable'),
    ...same<AirbnbListingRow>('INTEGER', 'calculated_host_listings_count'),
    ...same<AirbnbListingRow>('DOUBLE', 'reviews_per_month'),
    ...same<AirbnbListingRow>('INTEGER', 'estimated_occupancy_l365d'),
    ...same<AirbnbListingRow>('DOUBLE', 'estimated_revenue_l365d'),
    ...same<AirbnbListingRow>('VARCHAR', 'last_scraped'),
  ],
  date: (r) => r.last_scraped,
});
