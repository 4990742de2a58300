-- Share of sales and of UPRN-less certificates given a UPRN.
SELECT (SELECT avg((uprn IS NOT NULL)::INT) FROM sale_matches) AS sales,
       (SELECT avg((uprn IS NOT NULL)::INT) FROM epc_matches) AS epc
