-- hmo_summary: each register's as-of date (a JSON object, register → date or null), kept in
-- hmo-points.rows' meta: GET /hmo/licences names the registers its licences come from.
SELECT coalesce(json_group_object(register, register_as_of), '{}')::VARCHAR AS registers
FROM (SELECT register, arg_max(register_as_of, licence_reference) AS register_as_of FROM hmo_licences GROUP BY register)
