-- The local authority each postcode sector mostly lies in (postcodes): the HMO valuation's district.
SELECT sector, mode(la_code) AS la_code FROM postcodes WHERE la_code IS NOT NULL AND sector IS NOT NULL GROUP BY sector
