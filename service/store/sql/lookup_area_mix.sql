SELECT dim, value, n FROM lk_area_mix WHERE key = $1 ORDER BY dim, n DESC, value
