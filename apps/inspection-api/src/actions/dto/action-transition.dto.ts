import { ApiProperty } from '@nestjs/swagger';
import { ACTION_STATUSES } from '../action-transitions';

export class ActionTransitionDto {
  @ApiProperty({
    type: String,
    enum: ACTION_STATUSES,
    nullable: true,
    description: 'null when the action was opened.',
  })
  from: string | null;
  @ApiProperty({ enum: ACTION_STATUSES }) to: string;
  @ApiProperty({ description: 'The username of who made it ("" when a record opened the action by itself).' })
  by: string;
  @ApiProperty({ format: 'date-time' }) at: string;
}
