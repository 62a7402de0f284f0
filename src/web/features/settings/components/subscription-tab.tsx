import { Card, CardDescription, CardHeader, CardTitle } from '../../../components/ui/card';

/** The plans and checkout arrive with the subscription feature. */
export function SubscriptionTab() {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Subscription</CardTitle>
        <CardDescription>Premium and Platinum plans arrive soon.</CardDescription>
      </CardHeader>
    </Card>
  );
}
