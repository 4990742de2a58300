DELETE FROM reservations WHERE hold = $1 RETURNING expires_at > clock_timestamp() AS live
