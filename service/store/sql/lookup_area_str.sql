-- lookup_area_str: an area's short-term lets (key "level:code", STR levels).
SELECT scrape_date, listings, active_listings, from_month, to_month, adr, occupancy, booked_nights FROM lk_str WHERE key = $1
