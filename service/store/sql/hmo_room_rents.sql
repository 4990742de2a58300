-- Every area's room rent (rents_rooms), loaded once per build by the HMO valuation.
SELECT area_level, area_code, source, median_pcm, sample_size FROM rents_rooms WHERE median_pcm IS NOT NULL
