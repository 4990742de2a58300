-- lookup_area_str: each area's short-term lets (key "level:code", STR levels), loaded whole into the heap.
SELECT key, scrape_date, listings, active_listings, from_month, to_month, adr, occupancy, booked_nights FROM lk_str ORDER BY key
