-- The address base fields the street fallback's key is made of (street and post town).
SELECT uprn, street_name, post_town FROM addresses WHERE street_name IS NOT NULL
