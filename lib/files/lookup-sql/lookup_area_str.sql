-- lookup_area_str: each area's short-term lets (key "level:code", STR levels): written by the ETL
-- as lookup-area-str.rows (lib/files/lookup-tables-format.ts), or for an older build held in the
-- process (service/lookups/keyed.ts).
SELECT key, scrape_date, listings, active_listings, from_month, to_month, adr, occupancy, booked_nights FROM lk_str ORDER BY key
