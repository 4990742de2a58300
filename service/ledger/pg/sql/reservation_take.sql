DELETE FROM reservations WHERE id = $1 RETURNING expires_at > clock_timestamp() AS live
