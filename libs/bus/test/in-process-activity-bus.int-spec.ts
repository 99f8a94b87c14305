import { InProcessActivityBus } from '../src';
import { describeActivityBusContract } from './activity-bus.contract';

describeActivityBusContract('InProcessActivityBus', () => {
  const handlerErrors: unknown[] = [];
  const bus = new InProcessActivityBus({ onHandlerError: (error) => handlerErrors.push(error) });
  return Promise.resolve({ bus, peer: bus, handlerErrors, cleanup: () => bus.close() });
});
