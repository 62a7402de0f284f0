import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ownedNumberSchema, type RentNumberBody } from '../../../../common/api/numbers';
import { api } from '../../../lib/api-client';
import { phoneNumbersQuery } from '../../../lib/phone-numbers';

/** 409 'Number no longer available' when someone else got it first; 502 with the provider's reason. */
function rentNumber(body: RentNumberBody) {
  return api.post('/numbers', ownedNumberSchema, body);
}

export function useRentNumber() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: rentNumber,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: phoneNumbersQuery.queryKey }),
  });
}
