-- Current price-paid sales with the address parts the matcher reads.
SELECT transaction_id, postcode, town, saon, paon, street FROM ppd_current
